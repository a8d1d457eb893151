import { Elysia, t } from "elysia";
import type { Db } from "#server/db/types.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { AUTOSAVE_KEY_PATTERN, AutosaveInput } from "#shared/features/editor/contract.ts";
import { deleteAutosave, getAutosave, putAutosave } from "./service.ts";

/** Where the editors' own copies live, behind an admin guard of their own (see app.ts). */
export const AUTOSAVE_PATH = "/api/admin/autosave";

/** A post's content (200 KB at most) and its few other fields. */
const AUTOSAVE_BODY_LIMIT = 256 * 1024;

const Key = t.Object({
  key: t.String({
    pattern: AUTOSAVE_KEY_PATTERN,
    error: 'The key names what is being edited: "post:new" or "post:<id>" (also page: and offer:).',
  }),
});

/**
 * The editors' autosaves: GET, PUT and DELETE /api/admin/autosave/:key. A copy never changes
 * the record it was made from nor anything visitors see, so these writes leave the page cache alone.
 */
export function autosaveAdminRoutes(db: Db) {
  return new Elysia({ name: "autosave-admin" })
    .get("/:key", async ({ params }) => ({ autosave: await getAutosave(db, params.key) }), { params: Key })
    .put("/:key", ({ params, body }) => putAutosave(db, params.key, body.body), {
      parse: jsonBody(AutosaveInput, AUTOSAVE_BODY_LIMIT),
      body: AutosaveInput,
      params: Key,
    })
    .delete(
      "/:key",
      async ({ params }) => {
        await deleteAutosave(db, params.key);
        return { message: "Autosave discarded" };
      },
      { params: Key },
    );
}
