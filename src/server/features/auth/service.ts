import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import type { AdminUser } from "#shared/features/auth/contract.ts";
import { ARGON2 } from "./bootstrap.ts";
import { adminUsers } from "./table.ts";

// Verifying against a real hash when the user does not exist keeps the answer time the
// same, so timing does not tell which user names exist. Made on first use, not at start.
let dummyHash: Promise<string> | null = null;
const dummy = () => (dummyHash ??= Bun.password.hash("not-a-real-password", ARGON2));

export async function verifyLogin(
  db: Db,
  username: string,
  password: string,
): Promise<(AdminUser & { tokenVersion: number }) | null> {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.username, username)).limit(1);
  // A stored hash that is not one (a database edited by hand; logged when read) matches no
  // password: `cam-guide admin reset-password` sets a new one.
  const ok = await Bun.password.verify(password, row?.passwordHash || (await dummy())).catch(() => false);
  return row && ok ? { id: row.id, username: row.username, tokenVersion: row.tokenVersion } : null;
}

/** The admin a token names, if the token is still current (not signed out since). */
export async function adminForToken(db: Db, id: number, tokenVersion: number): Promise<AdminUser | null> {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, id)).limit(1);
  return row && row.tokenVersion === tokenVersion ? { id: row.id, username: row.username } : null;
}

/** Ends every session of this admin: tokens carry the version they were issued with. */
export async function endSessions(db: Db, id: number): Promise<void> {
  await db
    .update(adminUsers)
    .set({ tokenVersion: sql`${adminUsers.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(adminUsers.id, id));
}
