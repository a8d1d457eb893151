// Turning two-factor sign-in on asks for the current password with the first code: a session
// alone (a stolen cookie) cannot enrol an authenticator of its own and lock the admin out.
import { describe, expect, test } from "bun:test";
import { ADMIN, adminApp, login } from "#tests/support/admin.ts";
import { codeAt } from "#tests/support/two-factor.ts";
import { adminUsers } from "./table.ts";

type App = Awaited<ReturnType<typeof adminApp>>;

const CONFIRM = "/api/admin/account/two-factor/confirm";
const WRONG_PASSWORD = { field: "currentPassword", message: "That is not your current password." };
const WRONG_CODE = { field: "code", message: "That code is not right. Try again." };

async function start(app: App): Promise<string> {
  const res = await app.asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} });
  expect(res.status).toBe(200);
  return ((await res.json()) as { secret: string }).secret;
}

const confirm = (app: App, json: unknown) => app.asAdmin(CONFIRM, { method: "POST", json });

async function adminRow(app: App) {
  const [row] = await app.db.select().from(adminUsers);
  return row!;
}

/** Refused at the field, with no new cookie: two-factor is still off, the secret still waits, every session goes on. */
async function refusedAt(app: App, res: Response, problem: { field: string; message?: string }, other: string) {
  expect(res.status).toBe(422);
  expect(((await res.json()) as { details: unknown[] }).details).toContainEqual(expect.objectContaining(problem));
  expect(res.headers.getSetCookie().some((c) => c.startsWith("cg_session="))).toBe(false);
  const row = await adminRow(app);
  expect([row.totpSecret, row.totpEnabledAt]).toEqual([null, null]);
  for (const cookie of [other, app.cookie])
    expect((await app.request("/api/admin/account", { headers: { cookie } })).status).toBe(200);
  return row;
}

describe("turning two-factor sign-in on asks for the current password", () => {
  test("missing, empty, too long or not text: 422 at the password field, nothing checked or changed", async () => {
    const app = await adminApp();
    const other = await login(app.request);
    const secret = await start(app);
    const before = await adminRow(app);
    // This step's code, good through the next step too (the window): at least 30 s for the
    // password checks before the last confirm. The step before's code was refused as soon as
    // they crossed a step's end, which a busy machine did.
    const code = codeAt(secret);
    for (const body of [
      { code },
      { code, currentPassword: "" },
      { code, currentPassword: "x".repeat(257) },
      { code, currentPassword: 12345678 },
      { code, currentPassword: null },
      { code, currentPassword: [ADMIN.password] },
      { code, password: ADMIN.password },
    ]) {
      const row = await refusedAt(
        app,
        await confirm(app, body),
        { field: "currentPassword", message: "Enter your current password." },
        other,
      );
      expect([row.totpPendingSecret, row.tokenVersion]).toEqual([secret, before.tokenVersion]);
    }
    // None of these was a guess: the throttle was not spent, and the same code still turns it on.
    expect((await confirm(app, { currentPassword: ADMIN.password, code })).status).toBe(200);
  });

  test("a wrong password with the right code: refused at the password, the code is not used, the admin retries", async () => {
    const app = await adminApp();
    const other = await login(app.request);
    const secret = await start(app);
    // This step's code, good through the next step too (the window): at least 30 s for the
    // password checks before the last confirm. The step before's code was refused as soon as
    // they crossed a step's end, which a busy machine did.
    const code = codeAt(secret);
    for (const currentPassword of ["not-the-password", ADMIN.password.toUpperCase(), `${ADMIN.password} `]) {
      const row = await refusedAt(app, await confirm(app, { currentPassword, code }), WRONG_PASSWORD, other);
      expect(row.totpPendingSecret).toBe(secret);
    }
    // Both wrong: the password is the one named.
    await refusedAt(app, await confirm(app, { currentPassword: "nope", code: "000000" }), WRONG_PASSWORD, other);
    const on = await confirm(app, { currentPassword: ADMIN.password, code });
    expect(on.status).toBe(200);
    expect((await adminRow(app)).totpSecret).toBe(secret);
  });

  test("the right password with a wrong code: refused at the code, the secret still waits", async () => {
    const app = await adminApp();
    const other = await login(app.request);
    const secret = await start(app);
    const wrong = codeAt(secret) === "000000" ? "111111" : "000000";
    for (const code of [wrong, " "]) {
      const row = await refusedAt(
        app,
        await confirm(app, { currentPassword: ADMIN.password, code }),
        WRONG_CODE,
        other,
      );
      expect(row.totpPendingSecret).toBe(secret);
    }
    // A recovery code where the app's first code goes is named as such: it can never confirm a set-up.
    for (const code of ["abcd-efgh-jkmn", "ABCD EFGH JKMN"]) {
      const row = await refusedAt(
        app,
        await confirm(app, { currentPassword: ADMIN.password, code }),
        {
          field: "code",
          message: expect.stringMatching(/^That is a recovery code\. Setting up needs the 6-digit code/),
        },
        other,
      );
      expect(row.totpPendingSecret).toBe(secret);
    }
    expect((await confirm(app, { currentPassword: ADMIN.password, code: codeAt(secret) })).status).toBe(200);
  });

  test("wrong passwords and wrong codes are one throttle: a right password does not clear it, then even both right wait", async () => {
    const app = await adminApp();
    const other = await login(app.request);
    const secret = await start(app);
    const bodies = [
      { currentPassword: "guess-1", code: codeAt(secret) },
      { currentPassword: "guess-2", code: codeAt(secret) },
      { currentPassword: ADMIN.password, code: "000000" },
      { currentPassword: "guess-3", code: codeAt(secret) },
      { currentPassword: "guess-4", code: codeAt(secret) },
    ];
    for (const body of bodies) expect((await confirm(app, body)).status).toBe(422);
    const blocked = await confirm(app, { currentPassword: ADMIN.password, code: codeAt(secret) });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await blocked.json()) as { error: string }).error).toStartWith("Too many wrong codes or passwords.");
    const row = await adminRow(app);
    expect([row.totpSecret, row.totpPendingSecret]).toEqual([null, secret]);
    expect((await app.request("/api/admin/account", { headers: { cookie: other } })).status).toBe(200);
  });

  test("with nothing to confirm, 409 before the password is checked, and no attempt is spent", async () => {
    const app = await adminApp();
    for (let i = 0; i < 6; i++) {
      const res = await confirm(app, { currentPassword: `guess-${i}`, code: "123456" });
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([
        409,
        "Start the set-up first: no secret is waiting for a code.",
      ]);
    }
    const secret = await start(app);
    expect((await confirm(app, { currentPassword: ADMIN.password, code: codeAt(secret, -1) })).status).toBe(200);
    const again = await confirm(app, { currentPassword: "guess", code: codeAt(secret) });
    expect(again.status).toBe(409);
  });
});
