/** Where the admin sees a saved post (draft, scheduled or public) as visitors will: `${PREVIEW_PATH}/<id>`; a POST here shows the editor's unsaved form. */
export const PREVIEW_PATH = "/admin/preview/post";
