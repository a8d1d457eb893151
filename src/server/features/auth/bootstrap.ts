import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { inTransaction } from "#server/db/transaction.ts";
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

/** A password reset that cannot be done; its message is written for the operator. */
export class AdminResetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdminResetError";
  }
}

export interface AdminResetResult {
  /** The admin's user name, to sign in with (not renamed by ADMIN_USERNAME). */
  username: string;
  generatedPassword: string | null;
  /** Extra admin accounts an older cam-guide created, now removed. */
  removed: string[];
}

/**
 * `cam-guide admin reset-password`: the site has one admin, and this sets its password,
 * whatever its name, and ends every session (the token version goes up, so every token
 * issued before is refused). `preferred` (ADMIN_USERNAME) never renames the admin; it only
 * picks which account stays when an older release left several: the one with that name,
 * else the first created. The others are removed, so no second account keeps an old
 * password.
 */
export async function resetAdminPassword(
  db: Db,
  preferred: string,
  password: string | null,
): Promise<AdminResetResult> {
  const plain = password ?? generatePassword();
  const passwordHash = await hashPassword(plain);
  return inTransaction(db, async (tx) => {
    const admins = await tx
      .select({ id: adminUsers.id, username: adminUsers.username })
      .from(adminUsers)
      .orderBy(adminUsers.id);
    const keep = admins.find((admin) => admin.username === preferred) ?? admins[0];
    if (!keep)
      throw new AdminResetError(
        "There is no admin account yet: start the server once and it creates one (from ADMIN_USERNAME and ADMIN_PASSWORD, or with a generated password it prints).",
      );
    const others = admins.filter((admin) => admin.id !== keep.id);
    await tx
      .update(adminUsers)
      .set({ passwordHash, tokenVersion: sql`${adminUsers.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(adminUsers.id, keep.id));
    if (others.length > 0)
      await tx.delete(adminUsers).where(
        inArray(
          adminUsers.id,
          others.map((admin) => admin.id),
        ),
      );
    return {
      username: keep.username,
      generatedPassword: password ? null : plain,
      removed: others.map((a) => a.username),
    };
  });
}

const JWT_SECRET_MIN = 32;

/** null when `text` can sign sessions, else what is wrong with it (the end of a sentence). */
export function jwtSecretProblem(text: string): string | null {
  const secret = text.trim();
  if (secret.length < JWT_SECRET_MIN) return `is shorter than ${JWT_SECRET_MIN} characters`;
  if (secret.length > 4096) return "is longer than 4096 characters";
  if (/[^\x21-\x7e]/.test(secret)) return "holds characters other than printable ASCII";
  return null;
}

/**
 * The session signing secret: JWT_SECRET, or a secret generated once and kept in
 * DATA_DIR/jwt-secret (mode 0600). A file that cannot be a good secret stops the server.
 */
export function loadJwtSecret(dataDir: string, configured: string | null): string {
  if (configured) return configured;
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) {
    const secret = readFileSync(file, "utf8").trim();
    const problem = jwtSecretProblem(secret);
    if (problem)
      throw new Error(
        `The session secret in ${file} ${problem}. Remove the file to have a new one generated (everyone is signed out), or set JWT_SECRET.`,
      );
    return secret;
  }
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return secret;
}
