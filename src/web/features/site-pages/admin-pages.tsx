/** /admin/pages and /admin/pages/:slug: the legal pages in the writing editor (filled in by the editor work). */
export function PagesTab({ record }: { record?: string }) {
  return <h2>{record ? "Edit Page" : "Pages"}</h2>;
}
