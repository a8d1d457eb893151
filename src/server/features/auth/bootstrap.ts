import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { adminUsers } from "./table.ts";

function generatePassword(): string {
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

/** The shortest session secret accepted, from JWT_SECRET or DATA_DIR/jwt-secret. */
const MIN_SECRET_LENGTH = 32;
// A generated secret is 64 characters; a file much larger than that is not a secret file.
const MAX_SECRET_FILE_BYTES = 4096;

/** null when `text` can sign sessions, else what is wrong with it (the end of a sentence). */
export function jwtSecretProblem(text: string): string | null {
  const secret = text.trim();
  if (secret.length < MIN_SECRET_LENGTH) return `is shorter than ${MIN_SECRET_LENGTH} characters`;
  if (secret.length > MAX_SECRET_FILE_BYTES) return `is longer than ${MAX_SECRET_FILE_BYTES} characters`;
  if (/[^\x21-\x7e]/.test(secret)) return "holds characters other than printable ASCII";
  return null;
}

/**
 * The session signing secret: JWT_SECRET, or a secret generated once and kept in
 * DATA_DIR/jwt-secret. The file is never used when it is too short to be safe: the start
 * stops with a message saying what to do. A file with nothing in it (an interrupted
 * first start, a disk that was full) holds no secret to keep, so a new one is written in
 * its place and `notice` says so; that signs out nobody who could have signed in.
 * Throws an Error whose message is meant for the operator.
 */
export function loadJwtSecret(
  dataDir: string,
  configured: string | null,
  notice: (message: string) => void = () => {},
): string {
  if (configured) return configured;
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) {
    let text: string;
    try {
      if (statSync(file).size > MAX_SECRET_FILE_BYTES) {
        throw new Error(`it is larger than ${MAX_SECRET_FILE_BYTES} bytes, so it is not a secret this server wrote`);
      }
      text = readFileSync(file, "utf8").trim();
    } catch (error) {
      throw new Error(
        `Cannot use the session secret in ${file}: ${(error as Error).message}. Fix or delete the file (a new secret is then generated and everyone is signed out), or set JWT_SECRET.`,
      );
    }
    if (text.length > 0) {
      const problem = jwtSecretProblem(text);
      if (!problem) return text;
      throw new Error(
        `The session secret in ${file} ${problem}; at least ${MIN_SECRET_LENGTH} printable characters are needed so sessions cannot be forged. Delete the file to have a new secret generated (everyone is signed out), put a longer secret in it, or set JWT_SECRET.`,
      );
    }
    notice(`${file} was empty: a new session secret was generated in its place.`);
  }
  const secret = randomBytes(48).toString("base64url");
  // Written whole under another name and then renamed: a crash never leaves half a secret.
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, secret, { mode: 0o600 });
    renameSync(temporary, file);
    chmodSync(file, 0o600);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`Cannot write the session secret to ${file}: ${(error as Error).message}`);
  }
  return secret;
}
