/** /admin/media: the media library (filled in by the media work). */
export function MediaTab() {
  return <h2>Media</h2>;
}
