import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { inTransaction } from "#server/db/transaction.ts";
import type { Db } from "#server/db/types.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { looksLikeRecoveryCode } from "#shared/features/auth/constants.ts";
import type { AccountStatus, Enrolment } from "#shared/features/auth/contract.ts";
import { hashPassword } from "./bootstrap.ts";
import { normaliseCode, recoveryCodeState, replaceRecoveryCodes, spendRecoveryCode } from "./recovery-codes.ts";
import { adminRecoveryCodes, adminUsers } from "./table.ts";

/** What every authenticator app expects: SHA-1, six digits, a new code every 30 seconds. */
const PERIOD = 30;
const ISSUER = "cam-guide";

export const WRONG_CODE = "That code is not right. Try again.";

/** A wrong code that has a recovery code's shape: the hint says why such a code can fail. */
const WRONG_RECOVERY_CODE =
  "That recovery code is not right, or it was used already (each one works once). Try another of your saved recovery codes, or the 6-digit code from your app.";

/** Why a code was refused, with the hint its shape calls for. */
export function wrongCodeMessage(code: string): string {
  return looksLikeRecoveryCode(code) ? WRONG_RECOVERY_CODE : WRONG_CODE;
}

function totp(secret: string, username = "admin"): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/**
 * The time step a six-digit code belongs to (this one, the one before or after, for a
 * clock a little off), or null when it is not a current code of `secret`.
 */
function codeStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  let delta: number | null;
  try {
    // validate answers the step's distance from now, or null: 0 (this step) is falsy.
    delta = totp(secret).validate({ token: code, window: 1, timestamp: now });
  } catch {
    // A stored secret that is not base32 (a database edited by hand) accepts no code: two-factor
    // stays on, and `cam-guide admin reset-2fa` is the way out, as for a lost phone.
    return null;
  }
  return delta !== null ? Math.floor(now / 1000 / PERIOD) + delta : null;
}

async function adminRow(db: Db, adminId: number) {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, adminId)).limit(1);
  if (!row) throw new HttpError(401, "Sign in as the admin to continue.");
  return row;
}

/** Whether the admin signs in with a second step. */
export async function twoFactorEnabled(db: Db, adminId: number): Promise<boolean> {
  return (await adminRow(db, adminId)).totpSecret !== null;
}

export async function accountStatus(db: Db, adminId: number): Promise<AccountStatus> {
  const row = await adminRow(db, adminId);
  const recovery = await recoveryCodeState(db, adminId);
  return {
    username: row.username,
    twoFactor: {
      enabled: row.totpSecret !== null,
      enabledAt: row.totpSecret !== null && row.totpEnabledAt ? row.totpEnabledAt.toISOString() : null,
      recoveryCodesLeft: recovery?.left ?? 0,
    },
  };
}

/** Enrolment, step one: a new secret, kept aside until a first code confirms it. */
export async function startEnrolment(db: Db, adminId: number): Promise<Enrolment> {
  const row = await adminRow(db, adminId);
  if (row.totpSecret !== null) throw new HttpError(409, "Two-factor sign-in is already on.");
  const secret = new Secret({ size: 20 }).base32;
  await db
    .update(adminUsers)
    .set({ totpPendingSecret: secret, updatedAt: new Date() })
    .where(eq(adminUsers.id, adminId));
  return { secret, uri: totp(secret, row.username).toString() };
}

/**
 * A change to how the admin signs in (two-factor on or off, new recovery codes) ends every
 * session: the token version goes up, and the answer carries it so the session that asked
 * can be given a fresh token.
 */
export interface SignInChanged {
  tokenVersion: number;
}

/** The secret the set-up is waiting to confirm; 409 while two-factor is on or no set-up was started. */
export async function waitingSecret(db: Db, adminId: number): Promise<string> {
  const row = await adminRow(db, adminId);
  if (row.totpSecret !== null) throw new HttpError(409, "Two-factor sign-in is already on.");
  if (!row.totpPendingSecret) throw new HttpError(409, "Start the set-up first: no secret is waiting for a code.");
  return row.totpPendingSecret;
}

/**
 * Enrolment, step two: a first code from the app turns two-factor sign-in on. A wrong code
 * (422) changes nothing: the waiting secret stays for the next try. The caller has checked
 * the current password (a session alone must not enrol an authenticator).
 */
export async function confirmEnrolment(
  db: Db,
  adminId: number,
  code: string,
  now = Date.now(),
): Promise<SignInChanged & { recoveryCodes: string[] }> {
  const pending = await waitingSecret(db, adminId);
  const step = codeStep(pending, normaliseCode(code), now);
  if (step === null) throw new HttpError(422, WRONG_CODE);
  return inTransaction(db, async (tx) => {
    // Only the secret that was checked, and only while it is still off: of two confirmations
    // at once, one turns it on and the other changes nothing.
    const [changed] = await tx
      .update(adminUsers)
      .set({
        totpSecret: pending,
        totpPendingSecret: null,
        totpLastStep: step,
        totpEnabledAt: new Date(now),
        tokenVersion: sql`${adminUsers.tokenVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(adminUsers.id, adminId), isNull(adminUsers.totpSecret), eq(adminUsers.totpPendingSecret, pending)))
      .returning({ tokenVersion: adminUsers.tokenVersion });
    if (!changed) throw new HttpError(409, "Two-factor sign-in is already on.");
    return { tokenVersion: changed.tokenVersion, recoveryCodes: await replaceRecoveryCodes(tx, adminId) };
  });
}

/** Which kind of code was accepted. */
export type SecondFactor = "app" | "recovery";

/**
 * Whether `code` is a current second factor of the admin, used up by this call: a code
 * from the app whose time step is later than the last one accepted, or an unused recovery
 * code. Each is taken by one conditional update, so two requests racing with the same
 * code cannot both pass. Answers the kind accepted, or null.
 */
export async function spendSecondFactor(
  db: Db,
  adminId: number,
  code: string,
  now = Date.now(),
): Promise<SecondFactor | null> {
  const row = await adminRow(db, adminId);
  if (row.totpSecret === null) return null;
  const typed = normaliseCode(code);
  const step = codeStep(row.totpSecret, typed, now);
  if (step !== null) {
    const taken = await db
      .update(adminUsers)
      .set({ totpLastStep: step })
      .where(and(eq(adminUsers.id, adminId), or(isNull(adminUsers.totpLastStep), lt(adminUsers.totpLastStep, step))))
      .returning({ id: adminUsers.id });
    return taken.length === 1 ? "app" : null;
  }
  return (await spendRecoveryCode(db, adminId, typed, now)) ? "recovery" : null;
}

/** Every session of the admin ends; answers the new token version. */
async function endSessionsIn(tx: Db, adminId: number): Promise<SignInChanged> {
  const [row] = await tx
    .update(adminUsers)
    .set({ tokenVersion: sql`${adminUsers.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(adminUsers.id, adminId))
    .returning({ tokenVersion: adminUsers.tokenVersion });
  if (!row) throw new HttpError(401, "Sign in as the admin to continue.");
  return row;
}

/**
 * Ten new recovery codes; the old ones stop working, and so does every session: one of the
 * old codes may have been used by someone else, which is why new ones are made.
 */
export async function regenerateRecoveryCodes(
  db: Db,
  adminId: number,
): Promise<SignInChanged & { recoveryCodes: string[] }> {
  return inTransaction(db, async (tx) => ({
    recoveryCodes: await replaceRecoveryCodes(tx, adminId),
    ...(await endSessionsIn(tx, adminId)),
  }));
}

/** The admin's columns with two-factor sign-in off: no secret, pending or in use, and no challenge open. */
const TWO_FACTOR_OFF = {
  totpSecret: null,
  totpPendingSecret: null,
  totpLastStep: null,
  totpEnabledAt: null,
  signInChallenge: null,
  signInChallengeFailures: 0,
} as const;

/** Two-factor sign-in off: the secret and the recovery codes are forgotten, every session ends. */
export async function disableTwoFactor(db: Db, adminId: number): Promise<SignInChanged> {
  return inTransaction(db, async (tx) => {
    const turnedOff = await tx
      .update(adminUsers)
      .set(TWO_FACTOR_OFF)
      .where(and(eq(adminUsers.id, adminId), isNotNull(adminUsers.totpSecret)))
      .returning({ id: adminUsers.id });
    if (turnedOff.length === 0) throw new HttpError(409, "Two-factor sign-in is already off.");
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
    return endSessionsIn(tx, adminId);
  });
}

/**
 * A new password: every session ends (the token version goes up); the answer carries the
 * new version so the session that asked can be given a fresh token.
 */
export async function setPassword(db: Db, adminId: number, password: string): Promise<{ tokenVersion: number }> {
  const passwordHash = await hashPassword(password);
  const [row] = await db
    .update(adminUsers)
    .set({ passwordHash, tokenVersion: sql`${adminUsers.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(adminUsers.id, adminId))
    .returning({ tokenVersion: adminUsers.tokenVersion });
  if (!row) throw new HttpError(401, "Sign in as the admin to continue.");
  return row;
}

/**
 * `cam-guide admin reset-2fa`: two-factor sign-in off for the admin (the site has one), its
 * recovery codes gone and every session ended. Answers the admins whose second step was on.
 */
export async function resetTwoFactor(db: Db): Promise<{ username: string; wasOn: boolean }[]> {
  return inTransaction(db, async (tx) => {
    const admins = await tx
      .select({ id: adminUsers.id, username: adminUsers.username, secret: adminUsers.totpSecret })
      .from(adminUsers)
      .orderBy(adminUsers.id);
    await tx.update(adminUsers).set({
      ...TWO_FACTOR_OFF,
      tokenVersion: sql`${adminUsers.tokenVersion} + 1`,
      updatedAt: new Date(),
    });
    await tx.delete(adminRecoveryCodes);
    return admins.map((admin) => ({ username: admin.username, wasOn: admin.secret !== null }));
  });
}
