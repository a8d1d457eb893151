import { describe, expect, test } from "bun:test";
import { ADMIN, login } from "#tests/support/admin.ts";
import { createAdmin } from "#tests/support/factories.ts";
import { runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";
import { resetAdminPassword } from "./bootstrap.ts";
import { LoginThrottle } from "./throttle.ts";

const withAdmin: Scenario["setup"] = ({ db }) => createAdmin(db);
const signIn = { method: "POST", path: "/api/auth/login", headers: { origin: "http://localhost" } } as const;

runScenarios("sign-in", [
  {
    ...signIn,
    name: "a right password sets an HttpOnly, SameSite=Lax, 7-day session cookie and answers the user",
    body: ADMIN,
    setup: withAdmin,
    status: 200,
    json: { user: { id: 1, username: "admin" } },
    check: (res) => {
      const cookie = res.headers.get("set-cookie")!;
      expect(cookie).toStartWith("cg_session=");
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Lax");
      expect(cookie).toContain("Max-Age=604800");
      expect(cookie).toContain("Path=/");
      // Over plain http (tests, local use) the cookie cannot be Secure.
      expect(cookie).not.toContain("Secure");
    },
  },
  ...[
    { username: "admin", password: "wrong-password" },
    { username: "nobody", password: ADMIN.password },
  ].map(
    (creds): Scenario => ({
      ...signIn,
      name: `wrong credentials ${JSON.stringify(creds)}: 401 'Invalid username or password'`,
      body: creds,
      setup: withAdmin,
      status: 401,
      json: { error: "Invalid username or password" },
      responseHeaders: { "set-cookie": null },
    }),
  ),
  {
    ...signIn,
    name: "a stored password hash that is not one (a database edited by hand) matches no password: 401, never a 500",
    body: ADMIN,
    setup: async ({ db, testDb }) => {
      await createAdmin(db);
      await testDb.rows("UPDATE admin_users SET password_hash = 'plain text'");
    },
    status: 401,
    json: { error: "Invalid username or password" },
  },
  ...(
    [
      [{ username: "", password: "x" }, "Username is required"],
      [{ username: "admin", password: "" }, "Password is required"],
      [{ username: "admin" }, "Password is required"],
    ] as const
  ).map(
    ([body, message]): Scenario => ({
      ...signIn,
      name: `missing fields ${JSON.stringify(body)}: 422`,
      body,
      status: 422,
      contains: [message],
    }),
  ),
  {
    ...signIn,
    name: "a sign-in from a foreign origin is refused",
    body: ADMIN,
    setup: withAdmin,
    headers: { origin: "https://evil.example" },
    status: 403,
    responseHeaders: { "set-cookie": null },
  },
]);

describe("sign-in", () => {
  test("each sign-in issues a new token", async () => {
    const { request, db } = await scenarioApp();
    await createAdmin(db);
    expect(await login(request)).not.toBe(await login(request));
  });

  test("failed sign-ins are throttled with 429 and a clear message", async () => {
    const api = await scenarioApp();
    await createAdmin(api.db);
    for (let i = 0; i < 5; i++) await api.check({ ...signIn, body: { ...ADMIN, password: `wrong-${i}` }, status: 401 });
    const blocked = await api.check({
      ...signIn,
      body: ADMIN,
      status: 429,
      contains: { error: expect.stringMatching(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/) },
    });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("the throttle forgets failures after its window and clears on success", () => {
    let now = 0;
    const throttle = new LoginThrottle(3, 1000, () => now);
    const fail = (ip: string) => {
      const attempt = throttle.begin(ip);
      if (!attempt.allowed) throw new Error("refused");
      attempt.fail();
    };
    for (let i = 0; i < 3; i++) fail("1.2.3.4");
    expect(throttle.begin("1.2.3.4")).toEqual({ allowed: false, retryAfter: 1, scope: "client" });
    expect(throttle.begin("5.6.7.8").allowed).toBe(true);
    now = 1001;
    fail("1.2.3.4");
    const attempt = throttle.begin("1.2.3.4");
    if (!attempt.allowed) throw new Error("refused");
    attempt.succeed();
    for (let i = 0; i < 3; i++) fail("1.2.3.4");
  });
});

describe("session", () => {
  test("me: isAdmin false without a session, true with one, false with a forged one", async () => {
    const api = await scenarioApp({ admin: true });
    await api.check({ path: "/api/auth/me", status: 200, json: { isAdmin: false } });
    await api.check({
      path: "/api/auth/me",
      headers: { cookie: api.cookie },
      status: 200,
      json: { isAdmin: true, user: { id: 1, username: "admin" } },
    });
    await api.check({
      path: "/api/auth/me",
      headers: { cookie: "cg_session=forged.token.here" },
      status: 200,
      json: { isAdmin: false },
    });
  });

  test("logout ends the session on the server: a copied cookie stops working", async () => {
    const api = await scenarioApp({ admin: true });
    await api.check({ who: "admin", path: "/api/admin/blog/posts", status: 200 });
    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/auth/logout",
      status: 200,
      responseHeaders: { "set-cookie": "Max-Age=0" },
    });
    await api.check({ who: "admin", path: "/api/admin/blog/posts", status: 401 });
    await api.check({ path: "/api/auth/me", headers: { cookie: api.cookie }, status: 200, json: { isAdmin: false } });
  });

  test("a reset password signs out every session", async () => {
    const api = await scenarioApp({ admin: true });
    await resetAdminPassword(api.db, "admin", "a-brand-new-password");
    await api.check({ who: "admin", path: "/api/admin/blog/posts", status: 401 });
  });
});
