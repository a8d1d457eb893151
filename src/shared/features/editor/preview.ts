import { type Static, Type } from "@sinclair/typebox";

/** The admin's editor preview: Markdown in, the HTML the site would store and show out. */
export const EDITOR_PREVIEW_PATH = "/api/admin/editor/preview";

export const PreviewInput = Type.Object({
  markdown: Type.String({ maxLength: 200_000, error: "The text to preview is at most 200,000 characters" }),
});
export type PreviewInput = Static<typeof PreviewInput>;

export interface PreviewAnswer {
  html: string;
}
