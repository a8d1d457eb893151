import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import type { AdminUser } from "#shared/features/auth/contract.ts";
import { CHALLENGE_COOKIE, cookieTokens, type SessionTokens } from "./session.ts";
import { adminUsers } from "./table.ts";

// The sign-in challenge (between the password and the code) is a signed cookie, but whether it
// may still be used is kept in the database: the admin's row holds the id of the one open
// challenge. Every change to it is one conditional update, so the rules hold however many
// server processes share the database, and however many requests race with one cookie.

/** Wrong codes one challenge takes; then it ends and the password must be typed again. */
export const CHALLENGE_FAILURES = 5;

/** A challenge that is still open: the admin it names, and what its cookie carries. */
export interface OpenChallenge extends AdminUser {
  tokenVersion: number;
  challengeId: string;
}

/**
 * The password was right: a new challenge, which replaces any open one (an older challenge
 * cookie stops working). Answers the cookie's value.
 */
export async function openChallenge(
  db: Db,
  tokens: SessionTokens,
  admin: { id: number; tokenVersion: number },
): Promise<string> {
  const challengeId = crypto.randomUUID();
  await db
    .update(adminUsers)
    .set({ signInChallenge: challengeId, signInChallengeFailures: 0 })
    .where(eq(adminUsers.id, admin.id));
  return tokens.signChallenge(admin, challengeId);
}

/**
 * The challenge a request's cookie carries, while it is open: signed by us, unexpired, of the
 * admin's current token version, and the challenge the admin's row names (not used, not
 * replaced by a newer password step, not ended by wrong codes).
 */
export async function challengeAdmin(db: Db, tokens: SessionTokens, request: Request): Promise<OpenChallenge | null> {
  for (const token of cookieTokens(request, CHALLENGE_COOKIE)) {
    const claims = await tokens.verifyChallenge(token);
    if (!claims) continue;
    const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, claims.id)).limit(1);
    if (row && row.tokenVersion === claims.v && row.signInChallenge === claims.challengeId && row.totpSecret !== null)
      return { id: row.id, username: row.username, tokenVersion: claims.v, challengeId: claims.challengeId };
  }
  return null;
}

/** How the row marks a challenge whose code is being checked: no cookie matches it meanwhile. */
const checking = (challengeId: string) => `${challengeId}:checking`;

/**
 * Takes the challenge for one code check: of any number of requests carrying it, only one at
 * a time gets true, and none once it was used, replaced by a newer password step, or ended.
 */
export async function claimChallenge(db: Db, challenge: OpenChallenge): Promise<boolean> {
  const claimed = await db
    .update(adminUsers)
    .set({ signInChallenge: checking(challenge.challengeId) })
    .where(
      and(
        eq(adminUsers.id, challenge.id),
        eq(adminUsers.signInChallenge, challenge.challengeId),
        eq(adminUsers.tokenVersion, challenge.tokenVersion),
      ),
    )
    .returning({ id: adminUsers.id });
  return claimed.length === 1;
}

/**
 * After the check: a right code uses the challenge up for good; a wrong one is counted and
 * gives the challenge back for the next try, unless it was the last one allowed. Nothing
 * changes if a newer password step replaced the challenge meanwhile.
 */
export async function settleChallenge(db: Db, challenge: OpenChallenge, { used }: { used: boolean }): Promise<void> {
  const failures = sql`${adminUsers.signInChallengeFailures} + 1`;
  await db
    .update(adminUsers)
    .set(
      used
        ? { signInChallenge: null, signInChallengeFailures: 0 }
        : {
            signInChallengeFailures: failures,
            signInChallenge: sql`case when ${failures} >= ${CHALLENGE_FAILURES} then null else ${challenge.challengeId} end`,
          },
    )
    .where(and(eq(adminUsers.id, challenge.id), eq(adminUsers.signInChallenge, checking(challenge.challengeId))));
}
