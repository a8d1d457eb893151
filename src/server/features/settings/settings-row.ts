import { eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { siteSettings } from "./table.ts";

/** Writes some of the site's settings into their one row; 503 when the seed never wrote it. */
export async function updateSettingsRow(db: Db, values: Partial<typeof siteSettings.$inferInsert>): Promise<void> {
  const saved = await db
    .update(siteSettings)
    .set(values)
    .where(eq(siteSettings.id, 1))
    .returning({ id: siteSettings.id });
  if (saved.length === 0) throw new HttpError(503, "Site settings are missing: run the seed.");
}
