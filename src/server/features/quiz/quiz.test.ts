import { describe, expect, test } from "bun:test";
import { createQuizResult } from "#tests/support/factories.ts";
import { type Body, runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";

const allA = Array.from({ length: 15 }, () => "A");
const valid = { archetype: "Girl Next Door", answers: allA };
const post = { method: "POST", path: "/api/quiz/result" } as const;

/** A body sent in 4 KB chunks with no Content-Length, as a streaming client would. */
function chunked(text: string) {
  return new ReadableStream({
    start(controller) {
      const bytes = new TextEncoder().encode(text);
      for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
      controller.close();
    },
  });
}

describe("POST /api/quiz/result", () => {
  test("a valid body is scored, stored and answered with a random id", async () => {
    const api = await scenarioApp();
    const first = await api.check({
      ...post,
      body: valid,
      status: 201,
      contains: { archetype: "Girl Next Door", id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) },
      rows: { quiz_results: 1 },
    });
    const second = await api.check({ ...post, body: valid, status: 201, rows: { quiz_results: 1 } });
    expect(second.json().id).not.toBe(first.json().id);
  });
});

// Every invalid body answers 4xx with a message and stores nothing.
const invalid: [string, Body | (() => Body), number, RegExp, Record<string, string>?][] = [
  ["malformed JSON", '{"archetype": "Girl', 400, /valid JSON/],
  ["empty body", "", 400, /empty/],
  [
    "not JSON content type",
    "archetype=x",
    415,
    /application\/json/,
    { "content-type": "application/x-www-form-urlencoded" },
  ],
  ["text/plain (a cross-site form)", JSON.stringify(valid), 415, /application\/json/, { "content-type": "text/plain" }],
  ["missing archetype", { answers: allA }, 422, /missing or invalid/],
  ["unknown archetype", { ...valid, archetype: "Astronaut" }, 422, /missing or invalid/],
  ["14 answers", { ...valid, answers: allA.slice(1) }, 422, /missing or invalid/],
  ["16 answers", { ...valid, answers: [...allA, "A"] }, 422, /missing or invalid/],
  ["a letter outside A–D", { ...valid, answers: [...allA.slice(1), "E"] }, 422, /missing or invalid/],
  ["a string instead of a list", { ...valid, answers: "AAAAAAAAAAAAAAA" }, 422, /missing or invalid/],
  ["an unknown field (a client-chosen id)", { ...valid, id: "chosen-by-client" }, 422, /missing or invalid/],
  ["numbers instead of letters", { ...valid, answers: allA.map(() => 1) }, 422, /missing or invalid/],
  ["an array body", [valid], 422, /missing or invalid/],
  [
    "archetype the answers do not give",
    { ...valid, archetype: "Dominatrix" },
    422,
    /score as "Girl Next Door", not "Dominatrix"/,
  ],
  ["oversized body (Content-Length)", { ...valid, pad: "x".repeat(20_000) }, 413, /larger than 16 KB/],
  [
    "oversized chunked body without Content-Length",
    () => chunked(JSON.stringify({ ...valid, pad: "y".repeat(40_000) })),
    413,
    /larger than 16 KB/,
    { "content-type": "application/json" },
  ],
];

runScenarios("POST /api/quiz/result refuses", [
  ...invalid.map(
    ([name, body, status, message, headers]): Scenario => ({
      ...post,
      name: `${name}: nothing stored`,
      body,
      headers,
      status,
      responseHeaders: { "content-type": "application/json" },
      contains: { error: expect.stringMatching(message) },
      rows: { quiz_results: 0 },
    }),
  ),
  {
    ...post,
    name: "a 422 names the fields and never echoes the body",
    body: { archetype: "Secret Agent", answers: ["Z"] },
    status: 422,
    notContains: ["Secret Agent"],
    check: (res) =>
      expect(
        res
          .json<{ details: { field: string }[] }>()
          .details.map((d) => d.field)
          .sort(),
      ).toEqual(["answers", "answers.0", "archetype"]),
  },
]);

runScenarios("GET /api/quiz/result/:id", [
  {
    name: "reads a stored result back",
    path: "/api/quiz/result/{id}",
    setup: async ({ db }) => ({ id: (await createQuizResult(db)).id }),
    status: 200,
    check: (res, _, { id }) => {
      const body = res.json<{ createdAt: string }>();
      expect(body).toMatchObject({ id, archetype: "Girl Next Door", answers: allA });
      expect(new Date(body.createdAt).toString()).not.toBe("Invalid Date");
    },
  },
  // A NUL (which PostgreSQL text cannot hold) finds nothing on both databases, never a 500.
  ...["nope", "1", "%27%20OR%201%3D1--", "a%00b", "%00"].map(
    (id): Scenario => ({
      name: `unknown id ${id}: 404 JSON`,
      path: `/api/quiz/result/${id}`,
      setup: ({ db }) => createQuizResult(db),
      status: 404,
      json: { error: "No quiz result with that id (results are kept for 180 days)." },
    }),
  ),
]);
