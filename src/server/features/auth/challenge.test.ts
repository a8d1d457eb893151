import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { CHALLENGE_ENDED } from "#shared/features/auth/constants.ts";
import { adminApp, SAME_ORIGIN } from "#tests/support/admin.ts";
import { codeAt, cookieOf, twoFactorClient } from "#tests/support/two-factor.ts";
import { CHALLENGE_FAILURES, challengeAdmin, claimChallenge, openChallenge, settleChallenge } from "./challenge.ts";
import { sessionTokens } from "./session.ts";
import { adminUsers } from "./table.ts";

/** An app with two-factor on, its client, and a way to count the recovery codes left. */
async function enrolled() {
  const app = await adminApp();
  const client = twoFactorClient(app.request, SAME_ORIGIN.origin);
  const { secret, recoveryCodes, session } = await client.enrol(app.cookie);
  const left = async () =>
    (
      (await (await client.asSession(session, "/api/admin/account")).json()) as {
        twoFactor: { recoveryCodesLeft: number };
      }
    ).twoFactor.recoveryCodesLeft;
  return { app, ...client, secret, recoveryCodes, left };
}

const ended = async (res: Response) => {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ error: CHALLENGE_ENDED });
  expect(cookieOf(res, "cg_session")).toBeNull();
};

describe("a sign-in challenge opens at most one session", () => {
  test("replayed after the sign-in, with another current code or a recovery code: refused, and no code is spent", async () => {
    const { passwordStep, codeStep, secret, recoveryCodes, left } = await enrolled();
    const challenge = await passwordStep();
    expect((await codeStep(challenge, codeAt(secret))).status).toBe(200);
    await ended(await codeStep(challenge, codeAt(secret, 1)));
    await ended(await codeStep(challenge, recoveryCodes[0]!));
    expect(await left()).toBe(10);
    // The same codes still work with a new password step.
    expect((await codeStep(await passwordStep(), recoveryCodes[0]!)).status).toBe(200);
  });

  test("a wrong code leaves it open for another try", async () => {
    const { passwordStep, codeStep, secret } = await enrolled();
    const challenge = await passwordStep();
    expect((await codeStep(challenge, "000000")).status).toBe(401);
    expect((await codeStep(challenge, codeAt(secret))).status).toBe(200);
    await ended(await codeStep(challenge, codeAt(secret, 1)));
  });

  test("a newer password step ends the older challenge", async () => {
    const { passwordStep, codeStep, secret } = await enrolled();
    const older = await passwordStep();
    const newer = await passwordStep();
    await ended(await codeStep(older, codeAt(secret)));
    expect((await codeStep(newer, codeAt(secret))).status).toBe(200);
  });

  test("without JavaScript a replayed challenge goes back to the password, with no session", async () => {
    const { app, passwordStep, codeStep, secret } = await enrolled();
    const challenge = await passwordStep();
    expect((await codeStep(challenge, codeAt(secret))).status).toBe(200);
    const form = await app.request("/api/auth/login/code", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...SAME_ORIGIN, cookie: challenge },
      body: new URLSearchParams({ code: codeAt(secret, 1) }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/admin-login?error=expired");
    expect(cookieOf(form, "cg_session")).toBeNull();
  });
});

describe("the challenge's state in the database", () => {
  test("of twenty claims racing for one challenge, one wins; a wrong code gives it back, a right one uses it up", async () => {
    const app = await adminApp();
    const [admin] = await app.db.select().from(adminUsers);
    await app.db.update(adminUsers).set({ totpSecret: "JBSWY3DPEHPK3PXP" });
    const tokens = sessionTokens("a-secret-of-at-least-thirty-two-chars");
    const cookie = `cg_2fa=${await openChallenge(app.db, tokens, admin!)}`;
    const challenge = (await challengeAdmin(app.db, tokens, new Request("http://x/", { headers: { cookie } })))!;
    expect(challenge).toMatchObject({ id: admin!.id, username: "admin" });

    const claims = await Promise.all(Array.from({ length: 20 }, () => claimChallenge(app.db, challenge)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    // While one request checks its code, the cookie opens nothing else.
    expect(await challengeAdmin(app.db, tokens, new Request("http://x/", { headers: { cookie } }))).toBeNull();
    await settleChallenge(app.db, challenge, { used: false });
    expect(await claimChallenge(app.db, challenge)).toBe(true);
    await settleChallenge(app.db, challenge, { used: true });
    expect(await claimChallenge(app.db, challenge)).toBe(false);
  });

  test(`after ${CHALLENGE_FAILURES} wrong codes the challenge is gone; a newer one starts from none`, async () => {
    const app = await adminApp();
    const [admin] = await app.db.select().from(adminUsers);
    const tokens = sessionTokens("a-secret-of-at-least-thirty-two-chars");
    await openChallenge(app.db, tokens, admin!);
    const [opened] = await app.db.select().from(adminUsers);
    const challengeId = opened!.signInChallenge!;
    const challenge = { id: admin!.id, username: "admin", tokenVersion: admin!.tokenVersion, challengeId };
    for (let i = 1; i <= CHALLENGE_FAILURES; i++) {
      expect(await claimChallenge(app.db, challenge)).toBe(true);
      await settleChallenge(app.db, challenge, { used: false });
    }
    expect(await claimChallenge(app.db, challenge)).toBe(false);
    await openChallenge(app.db, tokens, admin!);
    const [row] = await app.db.select().from(adminUsers).where(eq(adminUsers.id, admin!.id));
    expect(row!.signInChallengeFailures).toBe(0);
    expect(row!.signInChallenge).not.toBe(challengeId);
  });
});
