import { Elysia } from "elysia";
import { renderMarkdown } from "#server/lib/markdown.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { type PreviewAnswer, PreviewInput } from "#shared/features/editor/preview.ts";

/**
 * The writing editor's live preview, mounted under /api/admin behind the admin guard: the
 * very renderer and sanitiser a save uses, so the preview is what the page will show.
 * It stores nothing (app.ts leaves the page cache alone for it).
 */
export function editorPreviewRoutes() {
  return new Elysia({ name: "editor-preview" }).post(
    "/editor/preview",
    ({ body }): PreviewAnswer => ({ html: renderMarkdown(body.markdown) }),
    adminJson(PreviewInput),
  );
}
