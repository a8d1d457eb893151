import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { openMemoryDatabase } from "#server/db/client.ts";
import { memoryLogger } from "#server/logger.ts";
import { errorHandler, HttpError } from "#server/plugins/errors.ts";
import { defineRead } from "#shared/read.ts";
import { createReads, serveRead } from "./reads.ts";

const itemRead = defineRead<{ name: string; tag: string | undefined } | null>()(
  "/api/items/:name",
  { name: { pattern: "^[a-z ]+$", maxLength: 8, error: "A name is a few lowercase letters." } },
  { query: ["tag"] },
);
const listRead = defineRead<string[]>()("/api/items", {});

// The handlers here use no database; the context still carries a real one.
const context = { db: openMemoryDatabase().db, contact: async () => "x", now: () => new Date() };

function setup() {
  const served = [
    // Handlers may answer with a value or with a Promise: both are awaited.
    serveRead(itemRead, async (_, { name }, { tag }) => (name === "gone" ? null : { name, tag })),
    serveRead(listRead, () => ["a b", "c"], { cacheControl: "no-store" }),
  ];
  const { routes, resolve } = createReads(served, context);
  const app = new Elysia()
    .use(errorHandler({ logger: memoryLogger(), renderErrorPage: async () => new Response(null, { status: 500 }) }))
    .use(routes);
  const request = (path: string) => app.handle(new Request(`http://localhost${path}`));
  return { request, resolve };
}

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: unknown) => (error instanceof HttpError ? error.status : 500),
  );

describe("declared reads", () => {
  test("the key encodes the parameters and the query; it is the address both sides answer", async () => {
    const { request, resolve } = setup();
    const key = itemRead.key({ name: "a b" }, { tag: "x&y" });
    expect(key).toBe("/api/items/a%20b?tag=x%26y");
    expect(await (await request(key)).json()).toEqual({ name: "a b", tag: "x&y" });
    expect(await resolve(key)).toEqual({ name: "a b", tag: "x&y" });
    expect(listRead.key()).toBe("/api/items");
  });

  test("a parameter given twice is read as a page reads its address: the first value, on both sides", async () => {
    const { request, resolve } = setup();
    const key = "/api/items/ab?tag=first&tag=second&other=1";
    expect(await (await request(key)).json()).toEqual({ name: "ab", tag: "first" });
    expect(await resolve(key)).toEqual({ name: "ab", tag: "first" });
  });

  test("null from a handler is a 404 on both sides", async () => {
    const { request, resolve } = setup();
    expect((await request("/api/items/gone")).status).toBe(404);
    expect(await status(resolve("/api/items/gone"))).toBe(404);
  });

  test("a parameter rule is the route's schema, with its message; the resolver finds nothing", async () => {
    const { request, resolve } = setup();
    const res = await request("/api/items/TOO-LONG-NAME");
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("A name is a few lowercase letters.");
    expect(await status(resolve("/api/items/TOO-LONG-NAME"))).toBe(404);
    expect(await status(resolve("/api/items/%E0%A4%A"))).toBe(404);
  });

  test("the bound Cache-Control header goes out over HTTP", async () => {
    const { request } = setup();
    expect((await request("/api/items")).headers.get("cache-control")).toBe("no-store");
  });
});
