import { describe, expect, test } from "bun:test";
import { WriteLimiter } from "#server/plugins/write-limit.ts";
import { testApp } from "#tests/support/app.ts";
import { refusedFormScenarios, runScenarios, scenarioApp } from "#tests/support/scenario.ts";

// The quiz's last step without JavaScript: a urlencoded form posted to /quiz.
const form = { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" };
const post = { method: "POST", path: "/quiz", headers: form } as const;

describe("POST /quiz (the form's last step)", () => {
  test("all the answers are scored, saved and the browser sent to the result page (303)", async () => {
    const api = await scenarioApp();
    const res = await api.check({
      ...post,
      body: `answers=${"B".repeat(15)}`,
      status: 303,
      rows: { quiz_results: 1 },
    });
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/quiz\/result\?archetype=Dominatrix&id=[\w-]{22}$/);
    const id = new URL(location, "http://x").searchParams.get("id");
    // Saved as the script's path saves it: readable through the same API.
    await api.check({
      path: `/api/quiz/result/${id}`,
      status: 200,
      contains: { id, archetype: "Dominatrix", answers: Array(15).fill("B") },
    });
    // The result page the browser is sent to shows it.
    await api.check({ path: location, status: 200, contains: ["Dominatrix"] });
  });
});

// Every bad form answers a 4xx page and saves nothing.
runScenarios("POST /quiz refuses", [
  ...refusedFormScenarios(post, "quiz_results", [
    ["no answers", "", 422],
    ["14 answers", `answers=${"A".repeat(14)}`, 422],
    ["16 answers", `answers=${"A".repeat(16)}`, 422],
    ["a letter outside A–D", `answers=${"A".repeat(14)}E`, 422],
    ["lower-case letters", `answers=${"a".repeat(15)}`, 422],
    ["numbers", `answers=${"1".repeat(15)}`, 422],
    [
      "JSON instead of a form",
      JSON.stringify({ answers: "A".repeat(15) }),
      415,
      { "content-type": "application/json" },
    ],
    ["a form larger than 16 KB", `answers=${"A".repeat(15)}&pad=${"x".repeat(20_000)}`, 413],
  ]),
  {
    ...post,
    name: "a form posted from another site: 403, nothing saved",
    body: `answers=${"A".repeat(15)}`,
    headers: { ...form, origin: "https://elsewhere.example" },
    status: 403,
    // A page, as the other refusals: the visitor's browser shows it.
    responseHeaders: { "content-type": /text\/html/ },
    contains: ["Your answers could not be used", "This request came from another site and was refused."],
    rows: { quiz_results: 0 },
  },
]);

test("the form's posts share the visitor's write budget with the script's: over it, 429 and nothing saved", async () => {
  const t = testApp({
    testHooks: { writeLimiter: new WriteLimiter({ count: 2, windowSeconds: 60 }, { now: () => 0 }) },
  });
  const send = () =>
    t.request("/quiz", { method: "POST", headers: form, body: `answers=${"A".repeat(15)}`, redirect: "manual" });
  expect((await send()).status).toBe(303);
  expect((await send()).status).toBe(303);
  const over = await send();
  expect(over.status).toBe(429);
  expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
  // A browser without scripts shows it: a page with the reason and the way back to the answers.
  expect(over.headers.get("content-type")).toStartWith("text/html");
  const html = await over.text();
  expect(html).toContain("Too many submissions from your network");
  expect(html).toContain("Back button returns to your answers");
  expect((t.sqlite.query("SELECT count(*) AS n FROM quiz_results").get() as { n: number }).n).toBe(2);
});

test("posts another site makes are refused before they are counted: they cannot use up a visitor's budget", async () => {
  const t = testApp({
    testHooks: { writeLimiter: new WriteLimiter({ count: 2, windowSeconds: 60 }, { now: () => 0 }) },
  });
  const send = (headers: Record<string, string>, path = "/quiz") =>
    t.request(path, { method: "POST", headers, body: `answers=${"A".repeat(15)}`, redirect: "manual" });
  for (let i = 0; i < 10; i++) {
    expect((await send({ ...form, origin: "https://elsewhere.example" })).status).toBe(403);
    expect((await send({ ...form, origin: "http://localhost", "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(
      (await send({ "content-type": "text/plain", origin: "https://elsewhere.example" }, "/api/quiz/result")).status,
    ).toBe(403);
  }
  // The visitor's own two writes still go through.
  expect((await send(form)).status).toBe(303);
  expect((await send(form)).status).toBe(303);
  expect((await send(form)).status).toBe(429);
});

test("with the write limit turned off, another site's posts are still refused and save nothing", async () => {
  const t = testApp({ testHooks: { writeLimiter: null } });
  for (const path of ["/quiz", "/api/quiz/result"]) {
    const res = await t.request(path, {
      method: "POST",
      headers: { ...form, origin: "https://elsewhere.example" },
      body: `answers=${"A".repeat(15)}`,
      redirect: "manual",
    });
    expect(res.status).toBe(403);
  }
  expect((t.sqlite.query("SELECT count(*) AS n FROM quiz_results").get() as { n: number }).n).toBe(0);
});

test.each([
  ["//elsewhere.example/x", { href: "/", label: "Back to the home page" }],
  ["/quiz/", { href: "/quiz", label: "Start the quiz again" }],
  ["/QUIZ/EARNINGS", { href: "/quiz/earnings", label: "Start the calculator again" }],
])("a refused post to %s leads back into the site, never to the posted path", async (path, start) => {
  const t = testApp();
  const res = await t.request(path, {
    method: "POST",
    headers: { ...form, origin: "https://elsewhere.example" },
    body: "answers=A",
  });
  expect(res.status).toBe(403);
  const html = await res.text();
  expect(html).toContain(`<a href="${start.href}">${start.label}</a>`);
  expect(html).not.toContain("elsewhere.example");
});

test.each([
  ["an empty Origin", { origin: "" }],
  ["Sec-Fetch-Site in capitals", { "sec-fetch-site": "Cross-Site" }],
])("%s is another site's request: refused", async (_, headers) => {
  const t = testApp();
  const res = await t.request("/api/quiz/result", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ archetype: "Dominatrix", answers: Array(15).fill("B") }),
  });
  expect(res.status).toBe(403);
  expect((t.sqlite.query("SELECT count(*) AS n FROM quiz_results").get() as { n: number }).n).toBe(0);
});
