import { describe, expect, test } from "bun:test";
import { formStart } from "#server/lib/form-problem-page.ts";
import type { StorageState } from "#server/lib/storage-health.ts";
import { adminApp } from "#tests/support/admin.ts";
import { settingsInput } from "#tests/support/admin-inputs.ts";
import { ADMIN } from "#tests/support/factories.ts";
import { ADMIN_RESERVE_BYTES } from "./write-gate.ts";

// The write gate on the real app: every route that is not a read, found in the app's own route
// list (so a route added later is covered without editing this file), is refused while the
// storage says the data cannot be kept, and nothing in the database changes.

let state: StorageState = { ok: true };
const storage = { check: () => state, recheck: () => state, roomFor: () => state };
const app = await adminApp({ storage });

const writes = app.app.routes
  .filter((r) => !["GET", "HEAD", "OPTIONS", "ALL"].includes(r.method))
  .map((r) => [r.method, r.path.replace(/:\w+/g, "1")] as const);

function tables(): Record<string, unknown[]> {
  const names = app.sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all();
  return Object.fromEntries(names.map(({ name }) => [name, app.sqlite.query(`SELECT * FROM "${name}"`).all()]));
}

const refusals: [string, StorageState & { ok: false }][] = [
  ["the database file is missing", { ok: false, status: 503, reason: "the database file app.db is missing" }],
  ["the disk is full", { ok: false, status: 507, reason: "the disk holding the data is full (0 KB free)" }],
];

test("the app has writes of every kind to check", () => {
  const paths = writes.map(([m, p]) => `${m} ${p}`);
  for (const expected of [
    "POST /api/quiz/result",
    "POST /api/upload",
    "PUT /api/admin/settings",
    "POST /api/auth/login",
  ])
    expect(paths).toContain(expected);
  expect(writes.length).toBeGreaterThanOrEqual(15);
});

// Signing in with the password stores nothing: it is refused only while the data cannot be used.
const storesNothing = ([, path]: readonly [string, string]) => path === "/api/auth/login";

describe.each(refusals)("while %s", (_, refusal) => {
  const refused = writes.filter((write) => refusal.status === 503 || !storesNothing(write));
  test.each(refused)("%s %s is refused before its body is read, and changes nothing", async (method, path) => {
    const before = tables();
    state = refusal;
    try {
      let pulled = 0;
      const body = new ReadableStream(
        {
          pull(controller) {
            pulled++;
            controller.enqueue(new TextEncoder().encode('{"a":1}'));
            controller.close();
          },
          // Nothing is pulled until someone reads.
        },
        { highWaterMark: 0 },
      );
      const res = await app.asAdmin(path, { method, body, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(refusal.status);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const said = `Nothing was saved: ${refusal.reason}. Try again later.`;
      if (path.startsWith("/api/")) expect(((await res.json()) as { error: string }).error).toBe(said);
      else {
        // A form a page posts without JavaScript: a page that says so, with the way back.
        expect(res.headers.get("content-type")).toStartWith("text/html");
        const html = await res.text();
        expect(html).toContain(said);
        expect(html).toContain("Back button returns to your answers");
        const start = formStart(path);
        expect(html).toContain(`<a href="${start.href}">${start.label}</a>`);
      }
      expect(pulled).toBe(0);
    } finally {
      state = { ok: true };
    }
    expect(tables()).toEqual(before);
  });

  test.each([
    ["GET", "/api/blog/posts", 200],
    ["GET", "/", 200],
    ["HEAD", "/", 200],
    ["GET", "/api/admin/settings", 200],
  ])("%s %s still answers (reads are not writes)", async (method, path, status) => {
    state = refusal;
    try {
      expect((await app.asAdmin(path, { method })).status).toBe(status);
    } finally {
      state = { ok: true };
    }
  });

  test("/healthz answers 503 with the reason, not to be cached", async () => {
    state = refusal;
    try {
      const res = await app.request("/healthz");
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const reason = refusal.reason[0]!.toUpperCase() + refusal.reason.slice(1);
      expect(await res.json()).toEqual({ status: "unavailable", error: `${reason}.` });
    } finally {
      state = { ok: true };
    }
  });
});

test("once the storage is back, writes are accepted again", async () => {
  state = refusals[1]![1];
  const quiz = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
  const post = () =>
    app.request("/api/quiz/result", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(quiz),
    });
  expect((await post()).status).toBe(507);
  state = { ok: true };
  expect((await post()).status).toBe(201);
  expect((await app.request("/healthz")).status).toBe(200);
});

describe("a full disk leaves the admin a way in", () => {
  const full = (room?: number): StorageState => ({
    ok: false,
    status: 507,
    reason: "the disk holding the data is full",
    ...(room === undefined ? {} : { room }),
  });
  // At a public address: a sign-in there with room to spare records it as the site's address.
  const login = () =>
    app.app.handle(
      new Request("http://guide.example.com/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://guide.example.com" },
        body: JSON.stringify(ADMIN),
      }),
    );
  const quiz = () =>
    app.request("/api/quiz/result", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ archetype: "Girl Next Door", answers: Array(15).fill("A") }),
    });
  const settings = () =>
    app.asAdmin("/api/admin/settings", { method: "PUT", json: settingsInput({ brandName: "Full" }) });

  test.each([
    ["no room at all (the probe's write failed)", full()],
    ["no room at all", full(0)],
    ["some room inside the reserve", full(ADMIN_RESERVE_BYTES * 2)],
  ])("with %s, signing in with the password works and stores nothing", async (_, refusal) => {
    const before = tables();
    state = refusal;
    try {
      const res = await login();
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toContain("cg_session=");
    } finally {
      state = { ok: true };
    }
    expect(tables()).toEqual(before);
  });

  test("while the database file is missing, signing in is refused with the other writes", async () => {
    state = refusals[0]![1];
    try {
      expect((await login()).status).toBe(503);
    } finally {
      state = { ok: true };
    }
  });

  test("inside the reserve, the admin's small writes go ahead while anonymous writes are refused", async () => {
    state = full(ADMIN_RESERVE_BYTES);
    try {
      expect((await settings()).status).toBe(200);
      expect((await quiz()).status).toBe(507);
    } finally {
      state = { ok: true };
    }
  });

  test.each([
    ["below the admin's share", full(ADMIN_RESERVE_BYTES - 1)],
    ["the probe's write failed", full()],
  ])("%s, the admin's writes are refused too", async (_, refusal) => {
    state = refusal;
    try {
      expect((await settings()).status).toBe(507);
    } finally {
      state = { ok: true };
    }
  });
});
