import { json, table, textId, timestampNow } from "#server/db/columns.ts";

/**
 * What an editor held when it last saved by itself (autosave), one row per record being
 * edited: "post:12", "post:new", "page:terms", "offer:3". Never shown to visitors.
 */
export const editorAutosaves = table("editor_autosaves", {
  key: textId("key"),
  body: json<Record<string, unknown>>("body").notNull(),
  savedAt: timestampNow("saved_at"),
});
