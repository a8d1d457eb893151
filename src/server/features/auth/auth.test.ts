import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { ADMIN, adminApp, login } from "#tests/support/admin.ts";
import { ensureAdmin } from "./bootstrap.ts";
import { LoginThrottle } from "./throttle.ts";

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", origin: "http://localhost", ...headers },
  body: JSON.stringify(body),
});

describe("sign-in (DECISIONS P12, P13)", () => {
  test("a right password sets an HttpOnly, SameSite=Lax, 7-day session cookie and answers the user", async () => {
    const { request, database } = testApp();
    await ensureAdmin(database.db, ADMIN.username, ADMIN.password);
    const res = await request("/api/auth/login", post(ADMIN));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: { id: 1, username: "admin" } });
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toStartWith("cg_session=");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Max-Age=604800");
    expect(cookie).toContain("Path=/");
    // Over plain http (tests, local use) the cookie cannot be Secure.
    expect(cookie).not.toContain("Secure");
  });

  test("each sign-in issues a new token", async () => {
    const { request, database } = testApp();
    await ensureAdmin(database.db, ADMIN.username, ADMIN.password);
    expect(await login(request)).not.toBe(await login(request));
  });

  test.each([
    [{ username: "admin", password: "wrong-password" }],
    [{ username: "nobody", password: ADMIN.password }],
  ])("wrong credentials %p: 401 'Invalid username or password'", async (creds) => {
    const { request, database } = testApp();
    await ensureAdmin(database.db, ADMIN.username, ADMIN.password);
    const res = await request("/api/auth/login", post(creds));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid username or password" });
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test.each([
    [{ username: "", password: "x" }, "Username is required"],
    [{ username: "admin", password: "" }, "Password is required"],
    [{ username: "admin" }, "Password is required"],
  ])("missing fields %p: 422 without echoing the password", async (body, message) => {
    const { request } = testApp();
    const res = await request("/api/auth/login", post(body));
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).toContain(message);
  });

  test("failed sign-ins are throttled with 429 and a clear message", async () => {
    const { request, database } = testApp();
    await ensureAdmin(database.db, ADMIN.username, ADMIN.password);
    for (let i = 0; i < 5; i++) expect((await request("/api/auth/login", post({ ...ADMIN, password: `wrong-${i}` }))).status).toBe(401);
    const blocked = await request("/api/auth/login", post(ADMIN));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await blocked.json()).error).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
  });

  test("the throttle forgets failures after its window and clears on success", () => {
    let now = 0;
    const throttle = new LoginThrottle(3, 1000, () => now);
    for (let i = 0; i < 3; i++) throttle.fail("1.2.3.4", "admin");
    expect(throttle.retryAfter("1.2.3.4", "admin")).toBe(1);
    expect(throttle.retryAfter("5.6.7.8", "admin")).toBe(0);
    now = 1001;
    expect(throttle.retryAfter("1.2.3.4", "admin")).toBe(0);
    throttle.fail("1.2.3.4", "admin");
    throttle.succeed("1.2.3.4", "admin");
    expect(throttle.retryAfter("1.2.3.4", "admin")).toBe(0);
  });

  test("a sign-in from a foreign origin is refused", async () => {
    const { request, database } = testApp();
    await ensureAdmin(database.db, ADMIN.username, ADMIN.password);
    const res = await request("/api/auth/login", post(ADMIN, { origin: "https://evil.example" }));
    expect(res.status).toBe(403);
  });
});

describe("session", () => {
  test("me: isAdmin false without a session, true with one", async () => {
    const { request, cookie } = await adminApp();
    expect(await (await request("/api/auth/me")).json()).toEqual({ isAdmin: false });
    expect(await (await request("/api/auth/me", { headers: { cookie } })).json()).toEqual({ isAdmin: true, user: { id: 1, username: "admin" } });
    expect(await (await request("/api/auth/me", { headers: { cookie: "cg_session=forged.token.here" } })).json()).toEqual({ isAdmin: false });
  });

  test("logout ends the session on the server: a copied cookie stops working", async () => {
    const { request, cookie, asAdmin } = await adminApp();
    expect((await asAdmin("/api/admin/blog/posts")).status).toBe(200);
    const out = await request("/api/auth/logout", { method: "POST", headers: { cookie, origin: "http://localhost" } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await asAdmin("/api/admin/blog/posts")).status).toBe(401);
    expect(await (await request("/api/auth/me", { headers: { cookie } })).json()).toEqual({ isAdmin: false });
  });

  test("a reset password signs out every session", async () => {
    const { asAdmin, database } = await adminApp();
    const { resetAdminPassword } = await import("./bootstrap.ts");
    await resetAdminPassword(database.db, "admin", "a-brand-new-password");
    expect((await asAdmin("/api/admin/blog/posts")).status).toBe(401);
  });
});
