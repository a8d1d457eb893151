import { createHash, randomInt } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { RECOVERY_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_LENGTH } from "#shared/features/auth/constants.ts";
import type { RecoveryCodeState } from "#shared/features/auth/contract.ts";
import { adminRecoveryCodes, adminUsers } from "./table.ts";

/** What the admin typed, as compared: spaces and dashes dropped, recovery codes lower-cased. */
export function normaliseCode(code: string): string {
  return code.replace(/[\s-]+/g, "").toLowerCase();
}

/**
 * Recovery codes are random (12 symbols of 31, about 59 bits), so a fast hash is enough to
 * keep them unreadable: there is nothing to guess from a dictionary, and each sign-in checks
 * one hash instead of ten slow ones.
 */
function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normaliseCode(code)).digest("hex");
}

function newRecoveryCode(): string {
  let code = "";
  for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  // Grouped for reading and copying: abcd-efgh-jkmn.
  return code.match(/.{4}/g)!.join("-");
}

/** Replaces the admin's recovery codes with ten new ones, answered once in plain text. */
export async function replaceRecoveryCodes(tx: Db, adminId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
  await tx.insert(adminRecoveryCodes).values(codes.map((code) => ({ adminId, codeHash: hashRecoveryCode(code) })));
  return codes;
}

/**
 * Whether `typed` (normalised) is an unused recovery code of the admin, used up by this call:
 * one conditional update, so two requests racing with the same code cannot both pass.
 */
export async function spendRecoveryCode(db: Db, adminId: number, typed: string, now: number): Promise<boolean> {
  if (typed.length !== RECOVERY_LENGTH) return false;
  const used = await db
    .update(adminRecoveryCodes)
    .set({ used: true, usedAt: new Date(now) })
    .where(
      and(
        eq(adminRecoveryCodes.adminId, adminId),
        eq(adminRecoveryCodes.codeHash, hashRecoveryCode(typed)),
        eq(adminRecoveryCodes.used, false),
      ),
    )
    .returning({ id: adminRecoveryCodes.id });
  return used.length === 1;
}

/** How many of the admin's recovery codes are left and when one was last used; null while two-factor is off. */
export async function recoveryCodeState(db: Db, adminId: number): Promise<RecoveryCodeState | null> {
  const [admin] = await db
    .select({ secret: adminUsers.totpSecret })
    .from(adminUsers)
    .where(eq(adminUsers.id, adminId))
    .limit(1);
  if (!admin || admin.secret === null) return null;
  const mine = eq(adminRecoveryCodes.adminId, adminId);
  const [[left], [last]] = await Promise.all([
    db
      .select({ n: count() })
      .from(adminRecoveryCodes)
      .where(and(mine, eq(adminRecoveryCodes.used, false))),
    db
      .select({ usedAt: adminRecoveryCodes.usedAt })
      .from(adminRecoveryCodes)
      .where(and(mine, eq(adminRecoveryCodes.used, true)))
      .orderBy(desc(adminRecoveryCodes.usedAt))
      .limit(1),
  ]);
  return { left: left?.n ?? 0, lastUsedAt: last?.usedAt?.toISOString() ?? null };
}
