import { type Static, Type } from "@sinclair/typebox";

/**
 * An editor's own copy of what it holds, saved by itself every few seconds (autosave). The
 * key names the record being edited: "post:12", "post:new" (a post not yet created), and
 * likewise "page:<slug>" and "offer:<id>". Never shown to visitors and never published.
 */
export const AUTOSAVE_KEY_PATTERN = "^(post|page|offer):(new|[a-z0-9][a-z0-9-]{0,59})$";

/** A form's fields as the editor holds them: text, yes/no, numbers or empty. */
export const AutosaveInput = Type.Object(
  {
    body: Type.Record(
      Type.String({ maxLength: 40 }),
      Type.Union([Type.String({ maxLength: 200_000 }), Type.Boolean(), Type.Number(), Type.Null()]),
      {
        maxProperties: 30,
        error: "The copy is the form's fields: text, yes/no, numbers or empty, at most 30 of them",
      },
    ),
  },
  { additionalProperties: false },
);
export type AutosaveInput = Static<typeof AutosaveInput>;

/** A saved copy, or null when there is none. */
export interface Autosave {
  key: string;
  body: Record<string, string | boolean | number | null>;
  /** When the server saved it (ISO). */
  savedAt: string;
}
