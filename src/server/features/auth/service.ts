import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { adminUsers } from "./table.ts";
import type { AdminUser } from "#shared/features/auth/contract.ts";
import { ARGON2 } from "./bootstrap.ts";

// Verifying against a real hash when the user does not exist keeps the answer time the
// same, so timing does not tell which user names exist. Made on first use, not at start.
let dummyHash: Promise<string> | null = null;
const dummy = () => (dummyHash ??= Bun.password.hash("not-a-real-password", ARGON2));

export async function verifyLogin(db: Db, username: string, password: string): Promise<(AdminUser & { tokenVersion: number }) | null> {
  const row = db.select().from(adminUsers).where(eq(adminUsers.username, username)).get();
  const ok = await Bun.password.verify(password, row?.passwordHash ?? (await dummy()));
  return row && ok ? { id: row.id, username: row.username, tokenVersion: row.tokenVersion } : null;
}

/** The admin a token names, if the token is still current (not signed out since). */
export function adminForToken(db: Db, id: number, tokenVersion: number): AdminUser | null {
  const row = db.select().from(adminUsers).where(eq(adminUsers.id, id)).get();
  return row && row.tokenVersion === tokenVersion ? { id: row.id, username: row.username } : null;
}

/** Ends every session of this admin: tokens carry the version they were issued with. */
export function endSessions(db: Db, id: number): void {
  db.update(adminUsers)
    .set({ tokenVersion: sql`${adminUsers.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(adminUsers.id, id))
    .run();
}
