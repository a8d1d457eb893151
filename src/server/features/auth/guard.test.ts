import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { SignJWT } from "jose";
import { openMemoryDatabase } from "#server/db/client.ts";
import { clientResolver } from "#server/lib/client.ts";
import { memoryLogger } from "#server/logger.ts";
import { errorHandler } from "#server/plugins/errors.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { ADMIN, adminApp, login } from "#tests/support/admin.ts";
import { TEST_SECRET } from "#tests/support/app.ts";
import { runScenarios } from "#tests/support/scenario.ts";
import { ensureAdmin } from "./bootstrap.ts";
import { ADMIN_PREFIX, adminGuard } from "./guard.ts";
import { authRoutes } from "./routes.ts";
import { sessionTokens } from "./session.ts";

/**
 * A small app with the real sign-in and the real guard, where the test adds a route of its
 * own to the admin mount: listed nowhere else, it must still be guarded.
 */
async function appWithNewAdminRoute() {
  const { db } = openMemoryDatabase();
  await ensureAdmin(db, ADMIN.username, ADMIN.password);
  const tokens = sessionTokens(TEST_SECRET);
  const allowedOrigins = (request: Request) => [new URL(request.url).origin];
  const calls: unknown[] = [];
  const schema = t.Object({ name: t.String({ minLength: 1 }) });
  const parse = jsonBody(schema);
  const app = new Elysia()
    .use(
      errorHandler({ logger: memoryLogger(), renderErrorPage: async (_r, status) => new Response(null, { status }) }),
    )
    .use(authRoutes(db, { tokens, secure: () => false, allowedOrigins, client: clientResolver() }))
    .use(
      adminGuard(ADMIN_PREFIX, { db, tokens, allowedOrigins })
        .get("/brand-new", () => {
          calls.push("get");
          return { ok: true };
        })
        .post(
          "/brand-new",
          ({ body }) => {
            calls.push(body);
            return { ok: true };
          },
          {
            parse: (context) => {
              calls.push("parse");
              return parse(context);
            },
            body: schema,
          },
        ),
    );
  const request = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
  return { request, calls, cookie: await login(request) };
}

describe("admin guard", () => {
  test("a route added to the admin mount is refused without a session (401, handler not run) and answers with one", async () => {
    const { request, calls, cookie } = await appWithNewAdminRoute();
    const guest = await request("/api/admin/brand-new");
    expect(guest.status).toBe(401);
    expect(await guest.json()).toEqual({ error: "Sign in as the admin to continue." });
    expect(calls).toEqual([]);

    const admin = await request("/api/admin/brand-new", { headers: { cookie } });
    expect(admin.status).toBe(200);
    expect(admin.headers.get("cache-control")).toBe("no-store");
    expect(await admin.json()).toEqual({ ok: true });
    expect(calls).toEqual(["get"]);
  });

  test("a guest's or a foreign site's body is never parsed; the admin's is, and checked", async () => {
    const { request, calls, cookie } = await appWithNewAdminRoute();
    const send = (headers: Record<string, string>, body = '{"name":""}') =>
      request("/api/admin/brand-new", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      });
    expect((await send({ origin: "http://localhost" })).status).toBe(401);
    expect((await send({ cookie, origin: "https://evil.example" })).status).toBe(403);
    expect((await send({ cookie, "sec-fetch-site": "cross-site" })).status).toBe(403);
    // Without an Origin, a Referer from another site (or one that is not an address) says enough.
    expect((await send({ cookie, referer: "https://evil.example/page" })).status).toBe(403);
    expect((await send({ cookie, referer: "not an address" })).status).toBe(403);
    expect(calls).toEqual([]);
    // Our own Referer without an Origin is let through to the route.
    expect((await send({ cookie, referer: "http://localhost/admin/posts" }, '{"name":"r"}')).status).toBe(200);
    calls.length = 0;

    // The admin's invalid body is read and refused by the route's own schema.
    const invalid = await send({ cookie, origin: "http://localhost" });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      error: "Some fields are missing or invalid.",
      details: [{ field: "name", message: "Expected string length greater or equal to 1" }],
    });
    expect((await send({ cookie, origin: "http://localhost" }, '{"name":"x"}')).status).toBe(200);
    expect(calls).toEqual(["parse", "parse", { name: "x" }]);
  });

  test("a token signed with our key but without an expiry, or without a version, is refused", async () => {
    const { request, database } = await adminApp();
    const key = new TextEncoder().encode(TEST_SECRET);
    const noExpiry = await new SignJWT({ v: 0 }).setProtectedHeader({ alg: "HS256" }).setSubject("1").sign(key);
    const noVersion = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setExpirationTime("1h")
      .sign(key);
    const good = await sessionTokens(TEST_SECRET).sign({ id: 1, tokenVersion: 0 });
    expect(database.sqlite.query("SELECT token_version AS v FROM admin_users").get()).toEqual({ v: 0 });
    for (const [kind, token, status] of [
      ["no expiry", noExpiry, 401],
      ["no version", noVersion, 401],
      ["ours", good, 200],
    ] as const) {
      const res = await request("/api/admin/settings", { headers: { cookie: `cg_session=${token}` } });
      expect([kind, res.status]).toEqual([kind, status]);
    }
  });
});

// A guest learns nothing about which admin paths exist: the whole prefix answers 401.
runScenarios(
  "the whole admin prefix is guarded",
  [
    ["GET", "/api/admin"],
    ["GET", "/api/admin/no-such-thing"],
    ["PATCH", "/api/admin/settings"],
    ["POST", "/api/upload"],
  ].map(([method, path]) => ({
    name: "a guest",
    method,
    path: path!,
    status: 401,
    json: { error: "Sign in as the admin to continue." },
    unchanged: true,
  })),
);
