// Adversarial: the two-factor sign-in challenge and the sessions around it, against the compiled
// executable. A challenge (the cg_2fa cookie the password step sets) must open at most one
// session: replayed after a sign-in, raced, after wrong codes, after a newer password step,
// forged, expired, tampered with, or from before two-factor was turned off and on again. A
// change to how the admin signs in (two-factor on or off, new recovery codes) ends every other
// session. Recovery codes left are counted right. Every case has a server of its own, on a
// copy of the template site (two-factor off), and enrols there; each request group comes from
// a client address of its own through a trusted proxy, so the code throttle of one request
// group never holds back another.
import { describe, expect, test } from "bun:test";
import { jwtVerify, SignJWT } from "jose";
import { sessionTokens } from "#server/features/auth/session.ts";
import { CHALLENGE_ENDED } from "#shared/features/auth/constants.ts";
import type { AdminHome } from "#shared/features/home/contract.ts";
import { BINARY, SERVER_ADMIN_PASSWORD } from "#tests/support/binary.ts";
import { type SiteServer, withServer } from "#tests/support/template-site.ts";
import { clearOfStepEdge, codeAt, cookieOf, twoFactorClient } from "#tests/support/two-factor.ts";

const SECRET = "two-factor-sessions-adversarial-secret-0123";
const CREDENTIALS = { username: "admin", password: SERVER_ADMIN_PASSWORD };
const WRONG = { error: "That code is not right. Try again." };
/** A wrong code with a recovery code's shape: the same answer whether such a code was used or never existed. */
const WRONG_RECOVERY = {
  error:
    "That recovery code is not right, or it was used already (each one works once). Try another of your saved recovery codes, or the 6-digit code from your app.",
};

let clients = 0;
/** A client address no other request group has used (seen through the trusted proxy). */
function fresh(): Record<string, string> {
  clients++;
  return { "x-forwarded-for": `10.25.${Math.floor(clients / 250)}.${(clients % 250) + 1}` };
}

/** The sign-in and Account calls of one running site, and what its operator can do. */
function siteOf(server: SiteServer) {
  const request = (path: string, init: RequestInit = {}) => fetch(server.url + path, { ...init, redirect: "manual" });
  const client = twoFactorClient(request, `http://127.0.0.1:${server.port}`, CREDENTIALS);

  /** `cam-guide admin reset-2fa` on the running site: two-factor off, every session ended. */
  function operatorReset() {
    const reset = Bun.spawnSync([BINARY, "admin", "reset-2fa"], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir },
    });
    expect(reset.exitCode).toBe(0);
  }

  /** A password sign-in, then two-factor on with a new secret. */
  const enrolled = async () => client.enrol(await client.signIn(fresh()));

  const codeStep = (challenge: string, code: string) => client.codeStep(challenge, code, fresh());
  const passwordStep = () => client.passwordStep(fresh());
  const statusOf = async (session: string, path = "/api/admin/account") =>
    (await client.asSession(session, path)).status;

  async function left(session: string): Promise<number> {
    const res = await client.asSession(session, "/api/admin/account");
    expect(res.status).toBe(200);
    return ((await res.json()) as { twoFactor: { recoveryCodesLeft: number } }).twoFactor.recoveryCodesLeft;
  }

  async function opens(res: Response): Promise<string> {
    expect(res.status).toBe(200);
    const session = cookieOf(res, "cg_session");
    expect(session).not.toBeNull();
    expect(await statusOf(session!)).toBe(200);
    return session!;
  }

  return { server, client, operatorReset, enrolled, codeStep, passwordStep, statusOf, left, opens };
}

type Site = ReturnType<typeof siteOf>;

/** Runs `use` with a site of its own. */
const withSite = (use: (site: Site) => Promise<void>) =>
  withServer((server) => use(siteOf(server)), {
    env: { JWT_SECRET: SECRET, TRUSTED_PROXIES: "127.0.0.1", LINK_CHECK_INTERVAL: "off" },
  });

async function ended(res: Response) {
  expect([res.status, await res.json()]).toEqual([401, { error: CHALLENGE_ENDED }]);
  expect(cookieOf(res, "cg_session")).toBeNull();
}

/** The claims of a challenge cookie's token, read without checking it. */
function claimsOf(challenge: string): { sub: string; v: number; jti: string; exp: number } {
  return JSON.parse(Buffer.from(challenge.split("=")[1]!.split(".")[1]!, "base64url").toString());
}

describe("a challenge replayed after its sign-in opens nothing and spends nothing", () => {
  test("with the next code from the app, a recovery code, the same code, or as a form", () =>
    withSite(async ({ server, client, enrolled, codeStep, passwordStep, statusOf, left, opens }) => {
      const { secret, recoveryCodes, session } = await enrolled();
      const challenge = await passwordStep();
      await opens(await codeStep(challenge, codeAt(secret)));
      for (const code of [codeAt(secret, 1), recoveryCodes[0]!, codeAt(secret), ` ${recoveryCodes[1]!.toUpperCase()} `])
        await ended(await codeStep(challenge, code));
      const form = await fetch(`${server.url}/api/auth/login/code`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: `http://127.0.0.1:${server.port}`,
          cookie: challenge,
          ...fresh(),
        },
        body: new URLSearchParams({ code: recoveryCodes[2]!, use: "recovery" }).toString(),
      });
      expect([form.status, form.headers.get("location")]).toEqual([303, "/admin-login?error=expired"]);
      expect(cookieOf(form, "cg_session")).toBeNull();
      // Sent twice, beside junk, or under the session's name: still nothing.
      for (const cookie of [
        `${challenge}; ${challenge}`,
        `cg_2fa=a.b.c; ${challenge}`,
        `cg_session=${challenge.slice(7)}`,
      ])
        expect((await client.codeStep(cookie, recoveryCodes[3]!, fresh())).status).toBe(401);
      expect(await statusOf(`cg_session=${challenge.slice(7)}`)).toBe(401);
      // Not one recovery code was used up by the replays.
      expect(await left(session)).toBe(10);
    }));

  test("a challenge used with a recovery code: replays with the app's code or another recovery code are refused", () =>
    withSite(async ({ enrolled, codeStep, passwordStep, left, opens }) => {
      const { secret, recoveryCodes, session } = await enrolled();
      const challenge = await passwordStep();
      const res = await codeStep(challenge, recoveryCodes[0]!);
      expect(await res.clone().json()).toEqual({ user: { id: 1, username: "admin" }, recoveryCodesLeft: 9 });
      await opens(res);
      for (const code of [recoveryCodes[1]!, codeAt(secret), codeAt(secret, 1), recoveryCodes[0]!])
        await ended(await codeStep(challenge, code));
      expect(await left(session)).toBe(9);
    }));
});

describe("racing one challenge", () => {
  test("ten codes at once, each right, each from its own address: exactly one session, and no loser spends a code", () =>
    withSite(async ({ enrolled, codeStep, passwordStep, left, opens }) => {
      const { secret, recoveryCodes, session } = await enrolled();
      const challenge = await passwordStep();
      const codes = [codeAt(secret), ...recoveryCodes.slice(0, 9)];
      const answers = await Promise.all(codes.map((code) => codeStep(challenge, code)));
      const winners = answers.filter((res) => res.status === 200);
      expect(winners).toHaveLength(1);
      await opens(winners[0]!);
      for (const res of answers.filter((r) => r.status !== 200)) await ended(res);
      const winnerUsedRecovery = answers.indexOf(winners[0]!) > 0;
      expect(await left(session)).toBe(winnerUsedRecovery ? 9 : 10);
    }));

  test("ten times the same code from one address: one session, the throttle still holds the rest", () =>
    withSite(async ({ client, enrolled, passwordStep }) => {
      const { secret } = await enrolled();
      const challenge = await passwordStep();
      const from = fresh();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => client.codeStep(challenge, codeAt(secret), from)),
      );
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.every((s) => s === 200 || s === 401 || s === 429)).toBe(true);
      expect(answers.filter((res) => cookieOf(res, "cg_session") !== null)).toHaveLength(1);
    }));

  test("wrong and right codes mixed, at once: at most one session", () =>
    withSite(async ({ enrolled, codeStep, passwordStep }) => {
      const { secret, recoveryCodes } = await enrolled();
      const challenge = await passwordStep();
      const codes = ["000000", recoveryCodes[0]!, "abcd-efgh-jkmn", codeAt(secret), "999999", recoveryCodes[1]!];
      const answers = await Promise.all(codes.map((code) => codeStep(challenge, code)));
      expect(answers.filter((res) => cookieOf(res, "cg_session") !== null).length).toBeLessThanOrEqual(1);
      expect(answers.every((res) => res.status === 200 || res.status === 401)).toBe(true);
    }));

  test("five password steps at once: only one of their challenges opens a session", () =>
    withSite(async ({ enrolled, codeStep, passwordStep }) => {
      const { secret, recoveryCodes } = await enrolled();
      const challenges = await Promise.all(Array.from({ length: 5 }, () => passwordStep()));
      const codes = [codeAt(secret), ...recoveryCodes.slice(0, 4)];
      const answers = await Promise.all(challenges.map((challenge, i) => codeStep(challenge, codes[i]!)));
      expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    }));
});

describe("wrong codes and newer password steps", () => {
  test("after a wrong code the challenge takes one more try, then is used up", () =>
    withSite(async ({ enrolled, codeStep, passwordStep, opens }) => {
      const { secret } = await enrolled();
      const challenge = await passwordStep();
      for (const [code, answer] of [
        ["000000", WRONG],
        ["12345", WRONG],
        ["abcd-efgh-jkmn", WRONG_RECOVERY],
      ] as const) {
        const res = await codeStep(challenge, code);
        expect([res.status, await res.json()]).toEqual([401, answer]);
      }
      await opens(await codeStep(challenge, codeAt(secret)));
      await ended(await codeStep(challenge, codeAt(secret, 1)));
    }));

  test("five wrong codes, each from another address, end the challenge: the right code then opens nothing", () =>
    withSite(async ({ enrolled, codeStep, passwordStep, left, opens }) => {
      const { secret, recoveryCodes, session } = await enrolled();
      const challenge = await passwordStep();
      for (let i = 0; i < 5; i++) expect((await codeStep(challenge, `00000${i}`)).status).toBe(401);
      await ended(await codeStep(challenge, codeAt(secret)));
      await ended(await codeStep(challenge, recoveryCodes[0]!));
      expect(await left(session)).toBe(10);
      // A new password step starts again.
      await opens(await codeStep(await passwordStep(), codeAt(secret)));
    }));

  test("a newer password step ends the older challenge, before and after the newer one is used", () =>
    withSite(async ({ enrolled, codeStep, passwordStep, opens }) => {
      const { secret, recoveryCodes } = await enrolled();
      const older = await passwordStep();
      const newer = await passwordStep();
      await ended(await codeStep(older, recoveryCodes[0]!));
      await opens(await codeStep(newer, codeAt(secret)));
      await ended(await codeStep(older, codeAt(secret, 1)));
    }));
});

describe("forged, expired and tampered challenges open nothing and spend nothing", () => {
  const key = new TextEncoder().encode(SECRET);
  // How the server derives the challenge's own key (src/server/features/auth/session.ts).
  const challengeKey = new Uint8Array(new Bun.CryptoHasher("sha256", key).update("two-factor challenge").digest());
  const sign = (claims: Record<string, unknown>, signingKey: Uint8Array, exp: string | number = "5m") => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setExpirationTime(exp);
    return jwt.sign(signingKey);
  };
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

  test("the key derivation in this test is the server's", async () => {
    const token = await sessionTokens(SECRET).signChallenge({ id: 1, tokenVersion: 3 }, crypto.randomUUID());
    expect((await jwtVerify(token, challengeKey)).payload).toMatchObject({ sub: "1", v: 3, purpose: "two-factor" });
  });

  test("each variant is refused; the real challenge still works afterwards", () =>
    withSite(async ({ client, enrolled, codeStep, passwordStep, left, opens }) => {
      const { secret, recoveryCodes, session } = await enrolled();
      const real = await passwordStep();
      const { sub, v, jti } = claimsOf(real);
      const open = { sub, v, jti, purpose: "two-factor" };
      const [header, payload, signature] = real.slice("cg_2fa=".length).split(".") as [string, string, string];
      const past = Math.floor(Date.now() / 1000) - 1;
      const flipped = signature.slice(0, -2) + (signature.at(-2) === "A" ? "B" : "A") + signature.at(-1);
      const variants: [string, string | Promise<string>][] = [
        ["expired (the open challenge's id, our key)", sign(open, challengeKey, past)],
        ["another challenge id", sign({ ...open, jti: crypto.randomUUID() }, challengeKey)],
        ["no challenge id", sign({ sub, v, purpose: "two-factor" }, challengeKey)],
        ["a challenge id that is not a UUID", sign({ ...open, jti: `${jti}:checking` }, challengeKey)],
        ["an older token version", sign({ ...open, v: v - 1 }, challengeKey)],
        ["a newer token version", sign({ ...open, v: v + 1 }, challengeKey)],
        ["a version as a string", sign({ ...open, v: String(v) }, challengeKey)],
        ["no purpose", sign({ sub, v, jti }, challengeKey)],
        ["another purpose", sign({ ...open, purpose: "session" }, challengeKey)],
        ["another admin", sign({ ...open, sub: "2" }, challengeKey)],
        ["a subject that is not an id", sign({ ...open, sub: "admin" }, challengeKey)],
        ["signed with the session key", sign(open, key)],
        ["signed with another site's secret", sign(open, new TextEncoder().encode("x".repeat(40)))],
        ["alg none", `${b64({ alg: "none" })}.${payload}.`],
        ["alg HS512 header on our signature", `${b64({ alg: "HS512" })}.${payload}.${signature}`],
        ["a tampered payload (newer expiry)", `${header}.${b64({ ...claimsOf(real), exp: past + 3600 })}.${signature}`],
        ["a tampered signature", `${header}.${payload}.${flipped}`],
        ["a session token", sessionTokens(SECRET).sign({ id: 1, tokenVersion: v })],
        ["no signature", `${header}.${payload}.`],
        ["empty", ""],
        ["junk", "%E0%A4%A"],
        ["huge", `${"a".repeat(3000)}.${"b".repeat(3000)}.c`],
      ];
      for (const [name, token] of variants) {
        const res = await client.codeStep(`cg_2fa=${await token}`, recoveryCodes[0]!, fresh());
        expect([name, res.status, await res.json()]).toEqual([name, 401, { error: CHALLENGE_ENDED }]);
        expect(cookieOf(res, "cg_session")).toBeNull();
      }
      expect(await left(session)).toBe(10);
      await opens(await codeStep(real, codeAt(secret)));
    }));
});

describe("a challenge from before a change to the sign-in ends", () => {
  test("two-factor turned off, then on again with a new secret: the old challenge opens nothing", () =>
    withSite(async ({ client, enrolled, codeStep, passwordStep, left }) => {
      const { recoveryCodes, session } = await enrolled();
      const challenge = await passwordStep();
      const off = await client.asSession(session, "/api/admin/account/two-factor/disable", { code: recoveryCodes[0] });
      expect(off.status).toBe(200);
      // Off: the code step with the old challenge is refused (there is no second step to finish).
      await ended(await codeStep(challenge, recoveryCodes[1]!));
      const again = await client.enrol(cookieOf(off, "cg_session")!);
      await ended(await codeStep(challenge, codeAt(again.secret)));
      await ended(await codeStep(challenge, again.recoveryCodes[0]!));
      expect(await left(again.session)).toBe(10);
    }));

  test("new recovery codes, a new password, signing out, and the operator's reset-2fa each end an open challenge", () =>
    withSite(async ({ client, operatorReset, enrolled, codeStep, passwordStep, opens }) => {
      const { secret, recoveryCodes, session } = await enrolled();
      let current = session;
      let codes = recoveryCodes;
      const changes: [string, () => Promise<void>][] = [
        [
          "new recovery codes",
          async () => {
            const res = await client.asSession(current, "/api/admin/account/two-factor/recovery-codes", {
              code: codes[0],
            });
            expect(res.status).toBe(200);
            current = cookieOf(res, "cg_session")!;
            codes = ((await res.json()) as { recoveryCodes: string[] }).recoveryCodes;
          },
        ],
        [
          "a new password (the same one again)",
          async () => {
            const res = await client.asSession(current, "/api/admin/account/password", {
              currentPassword: CREDENTIALS.password,
              newPassword: CREDENTIALS.password,
              code: codes[0],
            });
            expect(res.status).toBe(200);
          },
        ],
      ];
      for (const [name, change] of changes) {
        const challenge = await passwordStep();
        await change();
        const res = await codeStep(challenge, codeAt(secret));
        expect([name, res.status]).toEqual([name, 401]);
      }
      const beforeSignOut = await passwordStep();
      const signedIn = await opens(await codeStep(await passwordStep(), codeAt(secret)));
      await client.post("/api/auth/logout", {}, { cookie: signedIn });
      await ended(await codeStep(beforeSignOut, codeAt(secret, 1)));
      const beforeReset = await passwordStep();
      operatorReset();
      await ended(await codeStep(beforeReset, codeAt(secret, 1)));
    }));
});

describe("a change to how the admin signs in ends every other session", () => {
  const ADMIN_CALLS = ["/api/admin/account", "/api/admin/home", "/api/admin/settings", "/api/admin/blog/posts"];

  async function endsTheOthers({ client, statusOf }: Site, others: string[], asker: string, res: Response) {
    expect(res.status).toBe(200);
    const renewed = cookieOf(res, "cg_session");
    expect(renewed).not.toBeNull();
    for (const other of [...others, asker])
      for (const path of ADMIN_CALLS) expect([path, await statusOf(other, path)]).toEqual([path, 401]);
    for (const other of others) {
      const me = await client.asSession(other, "/api/auth/me");
      expect(await me.json()).toEqual({ isAdmin: false });
    }
    expect(await statusOf(renewed!)).toBe(200);
    return renewed!;
  }

  test("turning two-factor on: a stolen session and the asker's old cookie get 401; the asker goes on", () =>
    withSite(async (site) => {
      const { client, statusOf } = site;
      const asker = await client.signIn(fresh());
      const stolen = await client.signIn(fresh());
      const start = await client.asSession(asker, "/api/admin/account/two-factor/start", {});
      const { secret } = (await start.json()) as { secret: string };
      // Starting the set-up alone ends nothing.
      expect(await statusOf(stolen)).toBe(200);
      // A wrong first code ends nothing either.
      const wrong = await client.asSession(asker, "/api/admin/account/two-factor/confirm", {
        currentPassword: CREDENTIALS.password,
        code: "000000",
      });
      expect([wrong.status, cookieOf(wrong, "cg_session"), await statusOf(stolen)]).toEqual([422, null, 200]);
      await clearOfStepEdge();
      const confirm = await client.asSession(asker, "/api/admin/account/two-factor/confirm", {
        currentPassword: CREDENTIALS.password,
        code: codeAt(secret, -1),
      });
      await endsTheOthers(site, [stolen], asker, confirm);
    }));

  test("new recovery codes and turning it off: sessions opened with codes get 401", () =>
    withSite(async (site) => {
      const { client, enrolled, codeStep, passwordStep, statusOf, left, opens } = site;
      const { secret, recoveryCodes, session } = await enrolled();
      const byApp = await opens(await codeStep(await passwordStep(), codeAt(secret)));
      const byRecovery = await opens(await codeStep(await passwordStep(), recoveryCodes[0]!));
      const codes = await client.asSession(session, "/api/admin/account/two-factor/recovery-codes", {
        code: recoveryCodes[1],
      });
      const asker = await endsTheOthers(site, [byApp, byRecovery], session, codes);
      const fresh10 = ((await codes.clone().json()) as { recoveryCodes: string[] }).recoveryCodes;
      expect(await left(asker)).toBe(10);

      const other = await opens(await codeStep(await passwordStep(), fresh10[0]!));
      const refused = await client.asSession(asker, "/api/admin/account/two-factor/disable", {
        code: recoveryCodes[2],
      });
      expect([refused.status, cookieOf(refused, "cg_session"), await statusOf(other)]).toEqual([422, null, 200]);
      const off = await client.asSession(asker, "/api/admin/account/two-factor/disable", { code: fresh10[1] });
      await endsTheOthers(site, [other], asker, off);
    }));
});

describe("changes raced from one session", () => {
  test("turned on twice at once, or off twice at once with two right codes: one change, whose fresh cookie works", () =>
    withSite(async ({ client, statusOf, left }) => {
      const session = await client.signIn(fresh());
      const start = await client.asSession(session, "/api/admin/account/two-factor/start", {});
      const { secret } = (await start.json()) as { secret: string };
      await clearOfStepEdge();
      const ons = await Promise.all(
        [codeAt(secret, -1), codeAt(secret)].map((code) =>
          client.asSession(session, "/api/admin/account/two-factor/confirm", {
            currentPassword: CREDENTIALS.password,
            code,
          }),
        ),
      );
      const on = ons.filter((res) => res.status === 200);
      expect(on).toHaveLength(1);
      expect([401, 409]).toContain(ons.find((res) => res.status !== 200)!.status);
      const renewed = cookieOf(on[0]!, "cg_session")!;
      const { recoveryCodes } = (await on[0]!.json()) as { recoveryCodes: string[] };
      expect(await left(renewed)).toBe(10);

      const offs = await Promise.all(
        [codeAt(secret, 1), recoveryCodes[0]!].map((code) =>
          client.asSession(renewed, "/api/admin/account/two-factor/disable", { code }),
        ),
      );
      const off = offs.filter((res) => res.status === 200);
      expect(off).toHaveLength(1);
      expect([401, 409, 422]).toContain(offs.find((res) => res.status !== 200)!.status);
      expect(await statusOf(cookieOf(off[0]!, "cg_session")!)).toBe(200);
    }));
});

describe("recovery codes left", () => {
  test("each recovery sign-in says how many are left, as do Account and the admin home; at none, no more", () =>
    withSite(async ({ client, enrolled, codeStep, passwordStep, left, opens }) => {
      const { secret, recoveryCodes, session } = await enrolled();
      const home = async (cookie: string) =>
        ((await (await client.asSession(cookie, "/api/admin/home")).json()) as AdminHome).recoveryCodes;
      expect(await home(session)).toEqual({ left: 10, lastUsedAt: null });
      let last = "";
      for (const [i, code] of recoveryCodes.entries()) {
        const res = await codeStep(await passwordStep(), code);
        expect(await res.clone().json()).toEqual({ user: { id: 1, username: "admin" }, recoveryCodesLeft: 9 - i });
        last = await opens(res);
        if (i === 2) {
          const state = await home(last);
          expect(state!.left).toBe(7);
          expect(Math.abs(Date.now() - Date.parse(state!.lastUsedAt!))).toBeLessThan(60_000);
          expect(await left(last)).toBe(7);
        }
      }
      expect((await home(last))!.left).toBe(0);
      expect(await left(session)).toBe(0);
      // Every code is used up; a code from the app still signs in, and says nothing of recovery codes.
      const refused = await codeStep(await passwordStep(), recoveryCodes[9]!);
      expect([refused.status, await refused.json()]).toEqual([401, WRONG_RECOVERY]);
      const byApp = await codeStep(await passwordStep(), codeAt(secret));
      expect(await byApp.json()).toEqual({ user: { id: 1, username: "admin" } });
    }));
});

describe("a stolen session without the password cannot turn two-factor on", () => {
  const START = "/api/admin/account/two-factor/start";
  const CONFIRM = "/api/admin/account/two-factor/confirm";
  const PASSWORD = CREDENTIALS.password;
  const CALLS = ["/api/admin/account", "/api/admin/home", "/api/admin/settings", "/api/admin/blog/posts"];

  /** The calls of `site`'s admin and of a stolen copy of a session. */
  function stolenSite({ client, statusOf }: Site) {
    /** The admin signed in (two-factor off), and another session (a stolen copy) that starts its own set-up. */
    async function stolenSetUp() {
      const admin = await client.signIn(fresh());
      const stolen = await client.signIn(fresh());
      const start = await client.post(START, {}, { cookie: stolen, ...fresh() });
      expect(start.status).toBe(200);
      const { secret } = (await start.json()) as { secret: string };
      return { admin, stolen, secret };
    }

    const confirmAs = (session: string, body: unknown, from = fresh()) =>
      client.post(CONFIRM, body, { cookie: session, ...from });

    /** Two-factor is still off, both sessions go on, and the password alone still signs in. */
    async function nothingChanged(admin: string, stolen: string) {
      const account = await client.asSession(admin, "/api/admin/account");
      expect(((await account.json()) as { twoFactor: { enabled: boolean } }).twoFactor.enabled).toBe(false);
      for (const path of CALLS) expect([path, await statusOf(admin, path)]).toEqual([path, 200]);
      expect(await statusOf(stolen)).toBe(200);
      expect(await client.signIn(fresh())).not.toBeNull();
    }

    return { stolenSetUp, confirmAs, nothingChanged };
  }

  async function refusedAtPassword(name: string, res: Response, message?: string) {
    const body = (await res.json()) as { details?: { field: string; message: string }[] };
    const problem = body.details?.find((p) => p.field === "currentPassword");
    expect([name, res.status, problem?.message !== undefined]).toEqual([name, 422, true]);
    if (message) expect([name, problem!.message]).toEqual([name, message]);
    expect(cookieOf(res, "cg_session")).toBeNull();
  }

  test("missing, malformed or wrong passwords with the right code: 422 at the password, nothing changes; the waiting set-up is kept", () =>
    withSite(async (site) => {
      const { server, client, statusOf } = site;
      const { stolenSetUp, confirmAs, nothingChanged } = stolenSite(site);
      const { admin, stolen, secret } = await stolenSetUp();
      const code = () => codeAt(secret);
      const missing = "Enter your current password.";
      const malformed: [string, Record<string, unknown>, string?][] = [
        ["missing", {}, missing],
        ["empty", { currentPassword: "" }, missing],
        ["null", { currentPassword: null }, missing],
        ["a number", { currentPassword: 20240101 }, missing],
        ["true", { currentPassword: true }, missing],
        ["an object", { currentPassword: { $ne: "" } }, missing],
        ["a list", { currentPassword: [PASSWORD] }, missing],
        ["too long", { currentPassword: "x".repeat(257) }, missing],
        ["under another name", { password: PASSWORD }, missing],
        ["snake case", { current_password: PASSWORD }, missing],
        ["with a line break", { currentPassword: `${PASSWORD}\n` }],
        ["with a NUL", { currentPassword: `${PASSWORD}\u0000` }],
      ];
      for (const [name, body, message] of malformed)
        await refusedAtPassword(name, await confirmAs(stolen, { ...body, code: code() }), message);
      const wrong = "That is not your current password.";
      for (const currentPassword of [
        "not-the-password",
        "admin",
        " ",
        PASSWORD.toUpperCase(),
        ` ${PASSWORD}`,
        `${PASSWORD} `,
        PASSWORD.slice(0, -1),
        PASSWORD + PASSWORD,
        PASSWORD.replace("a", "\u0430"),
      ])
        await refusedAtPassword(currentPassword, await confirmAs(stolen, { currentPassword, code: code() }), wrong);
      // Both wrong: the password is named, the code is not checked.
      await refusedAtPassword(
        "both wrong",
        await confirmAs(stolen, { currentPassword: "nope", code: "000000" }),
        wrong,
      );
      // In the address, or not as JSON: refused too.
      const query = await client.post(
        `${CONFIRM}?currentPassword=${encodeURIComponent(PASSWORD)}`,
        { code: code() },
        {
          cookie: stolen,
          ...fresh(),
        },
      );
      await refusedAtPassword("in the query string", query, missing);
      const form = await fetch(server.url + CONFIRM, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: `http://127.0.0.1:${server.port}`,
          cookie: stolen,
          ...fresh(),
        },
        body: new URLSearchParams({ currentPassword: PASSWORD, code: code() }).toString(),
      });
      expect([form.status, cookieOf(form, "cg_session")]).toEqual([415, null]);
      await nothingChanged(admin, stolen);

      // Nothing was spent or replaced: the set-up still waits, and with the password the same
      // secret's code turns it on (and ends the other session).
      const on = await confirmAs(admin, { currentPassword: PASSWORD, code: code() });
      expect(on.status).toBe(200);
      expect(await statusOf(stolen)).toBe(401);
      expect(await statusOf(cookieOf(on, "cg_session")!)).toBe(200);
    }));

  test("wrong passwords are throttled per address, one by one or all at once, even before the right one; the admin elsewhere still turns it on", () =>
    withSite(async (site) => {
      const { statusOf } = site;
      const { stolenSetUp, confirmAs, nothingChanged } = stolenSite(site);
      const { admin, stolen, secret } = await stolenSetUp();
      const from = fresh();
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await confirmAs(stolen, { currentPassword: `guess-${i}`, code: codeAt(secret) }, from);
        statuses.push(res.status);
        if (res.status === 429) {
          expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
          expect(((await res.json()) as { error: string }).error).toMatch(
            /^Too many wrong codes or passwords\. Try again in \d+ (second|minute)s?\.$/,
          );
        }
      }
      const checked = statuses.filter((s) => s === 422).length;
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(5);
      expect(statuses).toEqual([...Array(checked).fill(422), ...Array(8 - checked).fill(429)]);
      // Throttled, even the right password and code are not checked from that address.
      const right = await confirmAs(stolen, { currentPassword: PASSWORD, code: codeAt(secret) }, from);
      expect([right.status, cookieOf(right, "cg_session")]).toEqual([429, null]);

      // Ten at once from one address: at most five are checked.
      const burstFrom = fresh();
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          confirmAs(stolen, { currentPassword: `burst-${i}`, code: codeAt(secret) }, burstFrom),
        ),
      );
      const burstStatuses = burst.map((res) => res.status);
      expect(burstStatuses.filter((s) => s === 422).length).toBeLessThanOrEqual(5);
      expect(burstStatuses.every((s) => s === 422 || s === 429)).toBe(true);
      await nothingChanged(admin, stolen);

      // The throttle holds the guessing address back, not the admin at their own.
      const on = await confirmAs(admin, { currentPassword: PASSWORD, code: codeAt(secret) });
      expect(on.status).toBe(200);
      expect(await statusOf(stolen)).toBe(401);
    }));

  test("with two-factor on, another set-up is refused before any password is asked", () =>
    withSite(async (site) => {
      const { client, enrolled, codeStep, passwordStep, statusOf, opens } = site;
      const { confirmAs } = stolenSite(site);
      const { secret, session } = await enrolled();
      const stolen = await opens(await codeStep(await passwordStep(), codeAt(secret)));
      expect((await client.post(START, {}, { cookie: stolen, ...fresh() })).status).toBe(409);
      for (const body of [
        { currentPassword: "guess", code: "123456" },
        { currentPassword: PASSWORD, code: codeAt(secret, 1) },
      ])
        expect((await confirmAs(stolen, body)).status).toBe(409);
      expect([await statusOf(stolen), await statusOf(session)]).toEqual([200, 200]);
      // The admin's own secret is the one that signs in.
      await opens(await codeStep(await passwordStep(), codeAt(secret, 1)));
    }));
});
