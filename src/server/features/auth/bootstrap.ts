import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { adminUsers } from "./table.ts";

export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes) rather than Bun's default
 * 64 MiB: one small VPS, one admin, and the memory peak of a hash stays modest.
 */
export const ARGON2 = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, ARGON2);
}

export type EnsureAdminResult =
  | { created: false }
  | { created: true; username: string; generatedPassword: string | null };

/**
 * On first start the admin is created from ADMIN_USERNAME and
 * ADMIN_PASSWORD; without a password one is generated and returned, to be printed once.
 * An existing admin is never changed here (the reset-password command does that).
 */
export async function ensureAdmin(db: Db, username: string, password: string | null): Promise<EnsureAdminResult> {
  const [existing] = await db.select({ id: adminUsers.id }).from(adminUsers).limit(1);
  if (existing) return { created: false };
  const plain = password ?? generatePassword();
  await db.insert(adminUsers).values({ username, passwordHash: await hashPassword(plain) });
  return { created: true, username, generatedPassword: password ? null : plain };
}

export async function resetAdminPassword(db: Db, username: string, password: string | null) {
  const plain = password ?? generatePassword();
  const [row] = await db
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .where(eq(adminUsers.username, username))
    .limit(1);
  const passwordHash = await hashPassword(plain);
  if (row) {
    await db
      .update(adminUsers)
      .set({ passwordHash, tokenVersion: sql`${adminUsers.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(adminUsers.id, row.id));
  } else {
    await db.insert(adminUsers).values({ username, passwordHash });
  }
  return { username, generatedPassword: password ? null : plain };
}

/** The session signing secret: JWT_SECRET, or a secret generated once and kept in the data directory. */
export function loadJwtSecret(dataDir: string, configured: string | null): string {
  if (configured) return configured;
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
