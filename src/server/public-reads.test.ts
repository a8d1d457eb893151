// Every public read is one declaration: served over HTTP and resolved for server rendering
// from the same bound list, with the same answer and the same parameter rules.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Glob } from "bun";
import { blogRedirects } from "#server/features/blog/table.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { type AnyRead, readKey } from "#shared/read.ts";
import { testApp } from "#tests/support/app.ts";
import { postJson } from "#tests/support/json.ts";
import { createReads } from "./lib/reads.ts";
import { publicReads } from "./public-reads.ts";

/** The real app, and a resolver over the same database as the app's own. */
async function setup() {
  const { request, database } = testApp();
  const { resolve } = createReads(publicReads, {
    db: database.db,
    contact: async () => "this website",
    now: () => new Date(),
  });
  const quiz = await (
    await request("/api/quiz/result", postJson({ archetype: "Dominatrix", answers: Array(15).fill("B") }))
  ).json();
  const earnings = await (
    await request(
      "/api/earnings/result",
      postJson({
        quizResultId: quiz.id,
        tier: "Hustler Mode",
        estimatedEarnings: "$160 – $3,120 a month",
        score: 30,
        answers: Array(15).fill(2),
      }),
    )
  ).json();
  const {
    posts: [post],
  } = await (await request("/api/blog/posts")).json();
  // An old address of that post, for the read that says where it moved.
  await database.db.insert(blogRedirects).values({ kind: "post", fromSlug: "an-old-address", toSlug: post.slug });
  return { request, resolve, quiz, earnings, post };
}

/** One answer of every read, by its path pattern: a new read without one fails the first test. */
function samples({
  quiz,
  earnings,
  post,
}: Awaited<ReturnType<typeof setup>>): Record<string, Record<string, string | number>> {
  return {
    "/api/settings": {},
    "/api/pages/:slug": { slug: "terms" },
    "/api/quiz/result/:id": { id: quiz.id },
    "/api/quiz/archetypes/:name": { name: "Submissive / Brat" },
    "/api/earnings/result/:id": { id: earnings.id },
    "/api/earnings/tiers/:name": { name: "Hustler Mode" },
    "/api/recommended-products/:archetype": { archetype: "All Archetypes" },
    "/api/course/modules": {},
    "/api/course/modules/:id": { id: 3 },
    "/api/module/:id/affiliate-offers": { id: 2 },
    "/api/blog/posts": {},
    "/api/blog/categories": {},
    "/api/blog/post/:slug": { slug: post.slug },
    "/api/blog/post/:slug/related": { slug: post.slug },
    "/api/blog/moved/:kind/:slug": { kind: "post", slug: "an-old-address" },
  };
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof HttpError ? error.status : error),
  );

describe("public reads", () => {
  test("every declared read is served over HTTP and resolved in SSR with the same data", async () => {
    const context = await setup();
    const table = samples(context);
    expect(Object.keys(table).sort()).toEqual(publicReads.map((r) => r.read.path).sort());
    for (const { read } of publicReads) {
      const key = readKey(read.path, table[read.path]);
      const res = await context.request(key);
      expect([key, res.status]).toEqual([key, 200]);
      const served = await res.json();
      expect(served).not.toBeNull();
      expect([key, JSON.parse(JSON.stringify(await context.resolve(key)))]).toEqual([key, served]);
    }
  });

  test("every read declared in src/shared/features/*/reads.ts is bound to a handler", async () => {
    const declared: AnyRead[] = [];
    const root = join(import.meta.dir, "..", "shared", "features");
    for await (const file of new Glob("*/reads.ts").scan(root)) {
      for (const value of Object.values(await import(join(root, file)))) {
        if (value && typeof value === "object" && "path" in value && "key" in value) declared.push(value as AnyRead);
      }
    }
    expect(declared.length).toBeGreaterThan(0);
    expect(new Set(publicReads.map((r) => r.read))).toEqual(new Set(declared));
  });

  test("a missing record: 404 over HTTP, a 404 to the renderer (which reads it as null)", async () => {
    const { request, resolve } = await setup();
    for (const key of [
      "/api/quiz/result/missing",
      "/api/earnings/result/missing",
      "/api/quiz/archetypes/Pirate",
      "/api/earnings/tiers/Pirate",
      "/api/blog/post/no-such-post",
      "/api/blog/moved/post/never-moved",
      "/api/course/modules/42",
      "/api/pages/nope",
    ]) {
      expect([key, (await request(key)).status]).toEqual([key, 404]);
      expect([key, await rejection(resolve(key))]).toEqual([key, 404]);
    }
  });

  test("a path whose id or slug breaks its rule: a 422 in the rule's own words, else a 404 (never a 422 about a bare length); nothing to the renderer", async () => {
    const { request, resolve } = await setup();
    for (const key of ["/api/course/modules/abc", "/api/module/11/affiliate-offers"]) {
      expect([key, (await request(key)).status]).toEqual([key, 422]);
      expect([key, await rejection(resolve(key))]).toEqual([key, 404]);
    }
    for (const key of [
      `/api/quiz/result/${"x".repeat(65)}`,
      `/api/earnings/result/${"x".repeat(65)}`,
      `/api/pages/${"x".repeat(65)}`,
    ]) {
      expect([key, (await request(key)).status]).toEqual([key, 404]);
      expect([key, await rejection(resolve(key))]).toEqual([key, 404]);
    }
    // An upload's name longer than any the server makes, likewise.
    expect((await request(`/uploads/${"x".repeat(70)}.jpg`)).status).toBe(404);
  });

  test("an undeclared API path is not resolvable", async () => {
    const { resolve } = await setup();
    for (const key of [
      "/api/admin/settings",
      "/api/admin/blog/posts",
      "/api/auth/me",
      "/api/nope",
      "/api/settings/extra",
      "/api/quiz/result",
      "/healthz",
    ]) {
      expect([key, await rejection(resolve(key))]).toEqual([key, 404]);
    }
  });

  test("the query string reaches the handler: fullRandom keeps the same offers", async () => {
    const { request, resolve } = await setup();
    const ids = (offers: unknown) => (offers as { id: number }[]).map((o) => o.id).sort();
    const ordered = await (await request("/api/module/7/affiliate-offers")).json();
    expect(ids(await resolve("/api/module/7/affiliate-offers?fullRandom=true&t=1"))).toEqual(ids(ordered));
  });
});
