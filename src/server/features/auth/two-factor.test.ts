import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { CHALLENGE_ENDED } from "#shared/features/auth/constants.ts";
import type { AdminHome } from "#shared/features/home/contract.ts";
import { ADMIN, adminApp, login, SAME_ORIGIN } from "#tests/support/admin.ts";
import { adminRecoveryCodes, adminUsers } from "./table.ts";
import { resetTwoFactor } from "./two-factor.ts";

type App = Awaited<ReturnType<typeof adminApp>>;

/** A code of `secret` for the step `offset` steps from now (-1, 0, 1 are all accepted once). */
function codeAt(secret: string, offset = 0): string {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0] ?? null;

/**
 * Waits, when the current 30-second step ends within 3 s, for the next one to begin: a code
 * made for the step before now is refused if the server reads its clock a step later (a busy
 * machine), so the steps a test spends must not cross an edge while it runs.
 */
async function clearOfStepEdge() {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await Bun.sleep(left + 50);
}

/** Enrols the signed-in admin: the secret, the recovery codes (the step before now is used up). */
async function enrol(app: App) {
  await clearOfStepEdge();
  const start = await app.asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} });
  expect(start.status).toBe(200);
  const { secret, uri } = (await start.json()) as { secret: string; uri: string };
  expect(uri).toStartWith("otpauth://totp/cam-guide:admin?");
  expect(uri).toContain(`secret=${secret}`);
  const confirm = await app.asAdmin("/api/admin/account/two-factor/confirm", {
    method: "POST",
    json: { currentPassword: ADMIN.password, code: codeAt(secret, -1) },
  });
  expect(confirm.status).toBe(200);
  const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

const post = (app: App, path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...SAME_ORIGIN, ...headers },
    body: JSON.stringify(body),
  });

/** The password step: answers the challenge cookie, never a session. */
async function passwordStep(app: App, extra: Record<string, unknown> = {}) {
  const res = await post(app, "/api/auth/login", { ...ADMIN, ...extra });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ codeRequired: true });
  expect(cookieOf(res, "cg_session")).toBeNull();
  const challenge = cookieOf(res, "cg_2fa");
  expect(challenge).not.toBeNull();
  expect(res.headers.get("set-cookie")).toContain("HttpOnly");
  return challenge!;
}

const codeStep = (app: App, challenge: string, code: string) =>
  post(app, "/api/auth/login/code", { code }, { cookie: challenge });

async function signsIn(app: App, res: Response) {
  expect(res.status).toBe(200);
  const session = cookieOf(res, "cg_session");
  expect(session).not.toBeNull();
  const me = await app.request("/api/auth/me", { headers: { cookie: session! } });
  expect(await me.json()).toMatchObject({ isAdmin: true });
  return session!;
}

describe("two-factor enrolment", () => {
  test("start, confirm with a first code: it is on, ten recovery codes are shown once and stored hashed", async () => {
    const app = await adminApp();
    const before = await app.asAdmin("/api/admin/account");
    expect(await before.json()).toEqual({
      username: "admin",
      twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 },
    });
    const { recoveryCodes } = await enrol(app);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const stored = await app.db.select().from(adminRecoveryCodes);
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(recoveryCodes.join()).not.toContain(row.codeHash);
    const [admin] = await app.db.select().from(adminUsers);
    expect(admin!.totpPendingSecret).toBeNull();
    const after = (await (await app.asAdmin("/api/admin/account")).json()) as { twoFactor: unknown };
    expect(after.twoFactor).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
  });

  test("a wrong first code does not turn it on; starting twice replaces the waiting secret", async () => {
    const app = await adminApp();
    const first = (await (
      await app.asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} })
    ).json()) as {
      secret: string;
    };
    const second = (await (
      await app.asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} })
    ).json()) as {
      secret: string;
    };
    expect(second.secret).not.toBe(first.secret);
    const wrong = await app.asAdmin("/api/admin/account/two-factor/confirm", {
      method: "POST",
      json: { currentPassword: ADMIN.password, code: codeAt(first.secret) },
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({
      details: [{ field: "code", message: "That code is not right. Try again." }],
    });
    const [admin] = await app.db.select().from(adminUsers);
    expect(admin!.totpSecret).toBeNull();
    // Without 2FA the password alone still signs in.
    const res = await post(app, "/api/auth/login", ADMIN);
    expect(cookieOf(res, "cg_session")).not.toBeNull();
  });
});

describe("signing in with two-factor on", () => {
  test("the password alone never gives a session: no flag, header or field skips the code", async () => {
    const app = await adminApp();
    await enrol(app);
    const challenge = await passwordStep(app, { twoFactor: false, skip: true, code: "000000", remember: true });
    // A challenge is not a session, whatever cookie name it is sent under.
    const asSession = `cg_session=${challenge.split("=")[1]}`;
    for (const cookie of [challenge, asSession]) {
      expect(await (await app.request("/api/auth/me", { headers: { cookie } })).json()).toEqual({ isAdmin: false });
      for (const path of ["/api/admin/account", "/api/admin/blog/posts", "/api/admin/settings"]) {
        expect((await app.request(path, { headers: { cookie, ...SAME_ORIGIN } })).status).toBe(401);
      }
    }
    // A form post without JavaScript goes to the code step, also without a session.
    const form = await app.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...SAME_ORIGIN, "x-skip-2fa": "1" },
      body: new URLSearchParams({ ...ADMIN, twoFactor: "off" }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/admin-login?step=code");
    expect(cookieOf(form, "cg_session")).toBeNull();
    expect(cookieOf(form, "cg_2fa")).not.toBeNull();
    // The code step without a challenge is refused too.
    const bare = await post(app, "/api/auth/login/code", { code: "123456" });
    expect(bare.status).toBe(401);
    expect(cookieOf(bare, "cg_session")).toBeNull();
  });

  test("a code from the app signs in once; the same code is refused the second time", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    const code = codeAt(secret);
    const res = await codeStep(app, await passwordStep(app), code);
    await signsIn(app, res);
    // The challenge ends with the sign-in.
    expect(res.headers.getSetCookie().some((c) => c.startsWith("cg_2fa=;") && c.includes("Max-Age=0"))).toBe(true);
    const again = await codeStep(app, await passwordStep(app), code);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ error: "That code is not right. Try again." });
    expect(cookieOf(again, "cg_session")).toBeNull();
    // The next step's code still works.
    await signsIn(app, await codeStep(app, await passwordStep(app), codeAt(secret, 1)));
  });

  test("a recovery code signs in once, typed in any case and with spaces; used twice it is refused", async () => {
    const app = await adminApp();
    const { recoveryCodes } = await enrol(app);
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replaceAll("-", " ")} `;
    const first = await codeStep(app, await passwordStep(app), typed);
    await signsIn(app, first);
    const again = await codeStep(app, await passwordStep(app), recoveryCodes[3]!);
    expect(again.status).toBe(401);
    const left = (await (await app.asAdmin("/api/admin/account")).json()) as {
      twoFactor: { recoveryCodesLeft: number };
    };
    expect(left.twoFactor.recoveryCodesLeft).toBe(9);
  });

  test("after a recovery code the answer and the admin home say how many are left; none left is said too", async () => {
    const app = await adminApp();
    const { secret, recoveryCodes } = await enrol(app);
    const home = async () => ((await (await app.asAdmin("/api/admin/home")).json()) as AdminHome).recoveryCodes;
    expect(await home()).toEqual({ left: 10, lastUsedAt: null });
    // A code from the app says nothing about recovery codes.
    const byApp = await codeStep(app, await passwordStep(app), codeAt(secret));
    expect(await byApp.clone().json()).toEqual({ user: { id: 1, username: "admin" } });
    for (const [i, code] of recoveryCodes.entries()) {
      const res = await codeStep(app, await passwordStep(app), code);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ user: { id: 1, username: "admin" }, recoveryCodesLeft: 9 - i });
    }
    const state = await home();
    expect(state?.left).toBe(0);
    expect(Date.now() - Date.parse(state!.lastUsedAt!)).toBeLessThan(60_000);
    // Off, there are no recovery codes to speak of.
    await app.asAdmin("/api/admin/account/two-factor/disable", { method: "POST", json: { code: codeAt(secret, 1) } });
    expect(await home()).toBeNull();
  });

  test("without JavaScript the code step posts a form: a wrong code comes back, a right one opens /admin", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    const challenge = await passwordStep(app);
    const form = (code: string, cookie = challenge) =>
      app.request("/api/auth/login/code", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...SAME_ORIGIN, cookie },
        body: new URLSearchParams({ code }).toString(),
      });
    const wrong = await form("000000");
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe("/admin-login?error=code&step=code");
    const expired = await form(codeAt(secret), "cg_2fa=not.a.token");
    expect(expired.headers.get("location")).toBe("/admin-login?error=expired");
    const right = await form(codeAt(secret));
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/admin");
    await signsIn(app, new Response(null, { status: 200, headers: right.headers }));
  });

  test("wrong codes are throttled with 429 like the password, and a wrong code says nothing but what its shape shows", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    const challenge = await passwordStep(app);
    const answers = new Set<string>();
    for (const code of ["000000", "111111", "abcd-efgh-jkmn", "12345", "999999"]) {
      const res = await codeStep(app, challenge, code);
      expect(res.status).toBe(401);
      answers.add(await res.text());
    }
    // Nothing about the stored codes: a recovery code's shape gets its hint (each works once), used or not.
    expect([...answers]).toEqual([
      JSON.stringify({ error: "That code is not right. Try again." }),
      JSON.stringify({
        error:
          "That recovery code is not right, or it was used already (each one works once). Try another of your saved recovery codes, or the 6-digit code from your app.",
      }),
    ]);
    // Five wrong codes end the challenge itself; a new one meets the address's throttle.
    const ended = await codeStep(app, challenge, codeAt(secret));
    expect(ended.status).toBe(401);
    expect(await ended.json()).toEqual({ error: CHALLENGE_ENDED });
    const blocked = await codeStep(app, await passwordStep(app), codeAt(secret));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(cookieOf(blocked, "cg_session")).toBeNull();
  });

  test("a stored secret that is not base32 (a database edited by hand) accepts no code: 401, never a 500; two-factor stays on", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    app.sqlite.exec("UPDATE admin_users SET totp_secret = '!!not base32!!'");
    const res = await codeStep(app, await passwordStep(app), codeAt(secret));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "That code is not right. Try again." });
  });

  test("a challenge from before the password was changed elsewhere is refused", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    const challenge = await passwordStep(app);
    await app.db.update(adminUsers).set({ tokenVersion: 99 }).where(eq(adminUsers.username, "admin"));
    const res = await codeStep(app, challenge, codeAt(secret));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: CHALLENGE_ENDED });
  });
});

describe("changes that ask for a current code", () => {
  test("new recovery codes need a code and make the old ones stop working", async () => {
    const app = await adminApp();
    const { secret, recoveryCodes } = await enrol(app);
    const path = "/api/admin/account/two-factor/recovery-codes";
    expect((await app.asAdmin(path, { method: "POST", json: { code: "000000" } })).status).toBe(422);
    const res = await app.asAdmin(path, { method: "POST", json: { code: codeAt(secret) } });
    expect(res.status).toBe(200);
    const fresh = ((await res.json()) as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    expect((await codeStep(app, await passwordStep(app), recoveryCodes[0]!)).status).toBe(401);
    await signsIn(app, await codeStep(app, await passwordStep(app), fresh[0]!));
  });

  test("turning it off needs a current code; then the password alone signs in again", async () => {
    const app = await adminApp();
    const { recoveryCodes } = await enrol(app);
    const path = "/api/admin/account/two-factor/disable";
    const missing = await app.asAdmin(path, { method: "POST", json: { code: "" } });
    expect(missing.status).toBe(422);
    const wrong = await app.asAdmin(path, { method: "POST", json: { code: "123456" } });
    expect(await wrong.json()).toMatchObject({ details: [{ field: "code" }] });
    expect((await app.asAdmin(path, { method: "POST", json: { code: recoveryCodes[0] } })).status).toBe(200);
    expect(await app.db.select().from(adminRecoveryCodes)).toEqual([]);
    const res = await post(app, "/api/auth/login", ADMIN);
    expect(cookieOf(res, "cg_session")).not.toBeNull();
  });

  test("changing the password needs the current one, 12+ characters and a code; other sessions end, this one goes on", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    const other = await signsIn(app, await codeStep(app, await passwordStep(app), codeAt(secret)));
    const path = "/api/admin/account/password";
    const change = (json: unknown) => app.asAdmin(path, { method: "POST", json });
    const good = { currentPassword: ADMIN.password, newPassword: "a-new-long-password" };

    const short = await change({ ...good, newPassword: "short", code: codeAt(secret, 1) });
    expect(short.status).toBe(422);
    expect(await short.text()).toContain("at least 12 characters");
    const noCode = await change(good);
    expect(await noCode.json()).toMatchObject({ details: [{ field: "code" }] });
    const wrongPassword = await change({ ...good, currentPassword: "not-it", code: codeAt(secret, 1) });
    expect(await wrongPassword.json()).toMatchObject({ details: [{ field: "currentPassword" }] });

    const res = await change({ ...good, code: codeAt(secret, 1) });
    expect(res.status).toBe(200);
    const fresh = cookieOf(res, "cg_session")!;
    expect((await app.request("/api/admin/account", { headers: { cookie: fresh } })).status).toBe(200);
    expect((await app.request("/api/admin/account", { headers: { cookie: other } })).status).toBe(401);
    expect((await app.request("/api/admin/account", { headers: { cookie: app.cookie } })).status).toBe(401);
    // The new password is the one that works.
    expect((await post(app, "/api/auth/login", ADMIN)).status).toBe(401);
    expect((await post(app, "/api/auth/login", { ...ADMIN, password: good.newPassword })).status).toBe(200);
  });

  test("without two-factor, changing the password asks only for the current one", async () => {
    const app = await adminApp();
    const res = await app.asAdmin("/api/admin/account/password", {
      method: "POST",
      json: { currentPassword: ADMIN.password, newPassword: "another-long-password" },
    });
    expect(res.status).toBe(200);
    expect(cookieOf(res, "cg_session")).not.toBeNull();
  });

  test("wrong codes given in Account are throttled too, and a right password does not clear the count", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    const change = (code: string) =>
      app.asAdmin("/api/admin/account/password", {
        method: "POST",
        json: { currentPassword: ADMIN.password, newPassword: "a-new-long-password", code },
      });
    for (let i = 0; i < 5; i++) expect((await change(`00000${i}`)).status).toBe(422);
    const blocked = await change(codeAt(secret));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).not.toBeNull();
  });
});

describe("a change to how the admin signs in ends every other session", () => {
  test("turning it on, new recovery codes, turning it off: another session gets 401, the one that asked a fresh cookie", async () => {
    const app = await adminApp();
    const account = (cookie: string) => app.request("/api/admin/account", { headers: { cookie } });
    const renewed = (res: Response) => {
      const cookie = cookieOf(res, "cg_session");
      expect(cookie).not.toBeNull();
      expect(res.headers.get("set-cookie")).toContain("HttpOnly");
      return cookie!;
    };
    // Starting the set-up changes nothing yet.
    const stolen = await login(app.request);
    await app.asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} });
    expect((await account(stolen)).status).toBe(200);

    const enrolled = await app.asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} });
    const { secret } = (await enrolled.json()) as { secret: string };
    await clearOfStepEdge();
    const on = await app.asAdmin("/api/admin/account/two-factor/confirm", {
      method: "POST",
      json: { currentPassword: ADMIN.password, code: codeAt(secret, -1) },
    });
    expect(on.status).toBe(200);
    expect((await account(stolen)).status).toBe(401);
    expect((await account(app.cookie)).status).toBe(401);
    expect((await account(renewed(on))).status).toBe(200);

    const second = await signsIn(app, await codeStep(app, await passwordStep(app), codeAt(secret)));
    const codes = await app.asAdmin("/api/admin/account/two-factor/recovery-codes", {
      method: "POST",
      json: { code: codeAt(secret, 1) },
    });
    expect(codes.status).toBe(200);
    expect((await account(second)).status).toBe(401);
    expect((await account(renewed(codes))).status).toBe(200);

    const { recoveryCodes } = (await codes.json()) as { recoveryCodes: string[] };
    const third = await signsIn(app, await codeStep(app, await passwordStep(app), recoveryCodes[0]!));
    const off = await app.asAdmin("/api/admin/account/two-factor/disable", {
      method: "POST",
      json: { code: recoveryCodes[1] },
    });
    expect(await off.json()).toEqual({
      message: "Two-factor sign-in is off. Every other session has been signed out.",
    });
    expect((await account(third)).status).toBe(401);
    expect((await account(renewed(off))).status).toBe(200);
  });

  test("two confirmations at once: one turns it on, and its codes and fresh cookie are the ones that work", async () => {
    const app = await adminApp();
    const start = await app.asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} });
    const { secret } = (await start.json()) as { secret: string };
    const confirm = (code: string) =>
      app.request("/api/admin/account/two-factor/confirm", {
        method: "POST",
        headers: { "content-type": "application/json", ...SAME_ORIGIN, cookie: app.cookie },
        body: JSON.stringify({ currentPassword: ADMIN.password, code }),
      });
    await clearOfStepEdge();
    const answers = await Promise.all([confirm(codeAt(secret, -1)), confirm(codeAt(secret))]);
    const won = answers.filter((res) => res.status === 200);
    expect(won).toHaveLength(1);
    expect([401, 409]).toContain(answers.find((res) => res.status !== 200)!.status);
    const session = cookieOf(won[0]!, "cg_session")!;
    expect((await app.request("/api/admin/account", { headers: { cookie: session } })).status).toBe(200);
    const { recoveryCodes } = (await won[0]!.json()) as { recoveryCodes: string[] };
    await signsIn(app, await codeStep(app, await passwordStep(app), recoveryCodes[0]!));
  });

  test("a refused change ends nothing", async () => {
    const app = await adminApp();
    const { secret } = await enrol(app);
    const other = await signsIn(app, await codeStep(app, await passwordStep(app), codeAt(secret)));
    for (const path of ["/api/admin/account/two-factor/recovery-codes", "/api/admin/account/two-factor/disable"]) {
      const res = await app.asAdmin(path, { method: "POST", json: { code: "000000" } });
      expect(res.status).toBe(422);
      expect(cookieOf(res, "cg_session")).toBeNull();
    }
    expect((await app.request("/api/admin/account", { headers: { cookie: other } })).status).toBe(200);
  });
});

describe("admin reset-2fa", () => {
  test("turns two-factor off, deletes the recovery codes and ends every session", async () => {
    const app = await adminApp();
    await enrol(app);
    expect(await resetTwoFactor(app.db)).toEqual([{ username: "admin", wasOn: true }]);
    expect((await app.asAdmin("/api/admin/account")).status).toBe(401);
    expect(await app.db.select().from(adminRecoveryCodes)).toEqual([]);
    const res = await post(app, "/api/auth/login", ADMIN);
    await signsIn(app, res);
  });
});
