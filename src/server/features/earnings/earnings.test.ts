import { expect } from "bun:test";
import { createQuizResult } from "#tests/support/factories.ts";
import { runScenarios, type Scenario } from "#tests/support/scenario.ts";

const lowest = Array.from({ length: 15 }, () => 1);
const highest = Array.from({ length: 15 }, () => 3);
const valid = { tier: "Casual Starter", estimatedEarnings: "$30 – $470 a month", score: 15, answers: lowest };
const post = { method: "POST", path: "/api/earnings/result" } as const;

runScenarios("POST /api/earnings/result", [
  {
    ...post,
    name: "valid without a quiz",
    body: valid,
    status: 201,
    contains: { tier: "Casual Starter" },
    rows: { earnings_results: 1 },
    check: async (res, api) => {
      const { id } = res.json<{ id: string }>();
      await api.check({
        path: `/api/earnings/result/${id}`,
        status: 200,
        contains: {
          id,
          quizResultId: null,
          tier: "Casual Starter",
          estimatedEarnings: "$30 – $470 a month",
          score: 15,
        },
      });
    },
  },
  {
    ...post,
    name: "valid with a quiz result id, which is kept",
    setup: async ({ db }) => ({
      quiz: (await createQuizResult(db, { archetype: "Dominatrix", answers: Array(15).fill("B") })).id,
    }),
    body: ({ quiz }) => ({
      quizResultId: quiz,
      tier: "Power Earner",
      estimatedEarnings: "$940 – $11,220 a month",
      score: 45,
      answers: highest,
    }),
    status: 201,
    rows: { earnings_results: 1 },
    check: async (res, api, { quiz }) => {
      await api.check({ path: `/api/earnings/result/${res.json().id}`, status: 200, contains: { quizResultId: quiz } });
    },
  },
  ...(
    [
      ["malformed JSON", "{", 400, /valid JSON/],
      ["14 answers", { ...valid, answers: lowest.slice(1) }, 422, /missing or invalid/],
      ["an answer of 4", { ...valid, answers: [...lowest.slice(1), 4] }, 422, /missing or invalid/],
      ["answers as strings", { ...valid, answers: lowest.map(String) }, 422, /missing or invalid/],
      ["unknown tier", { ...valid, tier: "Legend" }, 422, /missing or invalid/],
      ["tier that disagrees with the answers", { ...valid, tier: "Power Earner" }, 422, /does not match the answers/],
      ["range that disagrees", { ...valid, estimatedEarnings: "$1,000,000" }, 422, /does not match the answers/],
      ["score that disagrees", { ...valid, score: 16 }, 422, /does not match the answers/],
      ["unknown quizResultId", { ...valid, quizResultId: "missing-quiz" }, 422, /quizResultId/],
      [
        "missing score",
        { tier: valid.tier, estimatedEarnings: valid.estimatedEarnings, answers: lowest },
        422,
        /missing or invalid/,
      ],
      ["oversized", { ...valid, note: "z".repeat(17_000) }, 413, /16 KB/],
    ] as const
  ).map(
    ([name, body, status, message]): Scenario => ({
      ...post,
      name: `${name}: nothing stored`,
      body,
      status,
      contains: { error: expect.stringMatching(message) },
      rows: { earnings_results: 0 },
    }),
  ),
  {
    ...post,
    name: "a disagreeing body says which fields and what was expected",
    body: { ...valid, tier: "Hustler Mode", score: 20 },
    status: 422,
    check: (res) =>
      expect(res.json().details).toEqual([
        { field: "tier", message: 'Expected "Casual Starter" for these answers' },
        { field: "score", message: "Expected 15 (the sum of the answers)" },
      ]),
  },
]);

runScenarios("GET /api/earnings/result/:id", [
  {
    name: "unknown id: 404 JSON",
    path: "/api/earnings/result/unknown",
    status: 404,
    contains: { error: "No earnings result with that id (results are kept for 180 days)." },
  },
  {
    // PostgreSQL's text holds no NUL: the lookup finds nothing there too, never a 500.
    name: "an id with a NUL character: 404 JSON",
    path: "/api/earnings/result/a%00b",
    status: 404,
    contains: { error: "No earnings result with that id (results are kept for 180 days)." },
  },
]);
