import { describe, expect, test } from "bun:test";
import { formStart } from "#server/lib/form-problem-page.ts";
import type { StorageState } from "#server/lib/storage-health.ts";
import { adminApp } from "#tests/support/admin.ts";

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

describe.each(refusals)("while %s", (_, refusal) => {
  test.each(writes)("%s %s is refused before its body is read, and changes nothing", async (method, path) => {
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
