import { eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import type { Autosave } from "#shared/features/editor/contract.ts";
import { editorAutosaves } from "./table.ts";

/** The editor's saved copy under `key`, or null. */
export async function getAutosave(db: Db, key: string): Promise<Autosave | null> {
  const [row] = await db.select().from(editorAutosaves).where(eq(editorAutosaves.key, key)).limit(1);
  return row ? { key: row.key, body: row.body as Autosave["body"], savedAt: row.savedAt.toISOString() } : null;
}

/** Keeps the editor's copy under `key` (one per record being edited), replacing the last one. */
export async function putAutosave(db: Db, key: string, body: Autosave["body"], now = new Date()): Promise<Autosave> {
  await db
    .insert(editorAutosaves)
    .values({ key, body, savedAt: now })
    .onConflictDoUpdate({ target: editorAutosaves.key, set: { body, savedAt: now } });
  return { key, body, savedAt: now.toISOString() };
}

/** Forgets the copy under `key` (the record was saved, or the admin discarded it). */
export async function deleteAutosave(db: Db, key: string): Promise<void> {
  await db.delete(editorAutosaves).where(eq(editorAutosaves.key, key));
}
