import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { countRows, postJson } from "#tests/support/json.ts";

const lowest = Array.from({ length: 15 }, () => 1);
const valid = { tier: "Casual Starter", estimatedEarnings: "$500 - $1,500 / month", score: 15, answers: lowest };

const invalid: { name: string; body: unknown; raw?: boolean; status: number; message: RegExp }[] = [
  { name: "malformed JSON", body: "{", raw: true, status: 400, message: /valid JSON/ },
  { name: "14 answers", body: { ...valid, answers: lowest.slice(1) }, status: 422, message: /missing or invalid/ },
  { name: "an answer of 4", body: { ...valid, answers: [...lowest.slice(1), 4] }, status: 422, message: /missing or invalid/ },
  { name: "answers as strings", body: { ...valid, answers: lowest.map(String) }, status: 422, message: /missing or invalid/ },
  { name: "unknown tier", body: { ...valid, tier: "Legend" }, status: 422, message: /missing or invalid/ },
  { name: "tier that disagrees with the answers", body: { ...valid, tier: "Power Earner" }, status: 422, message: /does not match the answers/ },
  { name: "range that disagrees", body: { ...valid, estimatedEarnings: "$1,000,000" }, status: 422, message: /does not match the answers/ },
  { name: "score that disagrees", body: { ...valid, score: 16 }, status: 422, message: /does not match the answers/ },
  { name: "unknown quizResultId", body: { ...valid, quizResultId: "missing-quiz" }, status: 422, message: /quizResultId/ },
  { name: "missing score", body: { tier: valid.tier, estimatedEarnings: valid.estimatedEarnings, answers: lowest }, status: 422, message: /missing or invalid/ },
  { name: "oversized", body: { ...valid, note: "z".repeat(17_000) }, status: 413, message: /16 KB/ },
];

describe("POST /api/earnings/result", () => {
  test("valid without a quiz", async () => {
    const { request, database } = testApp();
    const res = await request("/api/earnings/result", postJson(valid));
    expect(res.status).toBe(201);
    const { id, tier } = await res.json();
    expect(tier).toBe("Casual Starter");
    const stored = await (await request(`/api/earnings/result/${id}`)).json();
    expect(stored).toMatchObject({ id, quizResultId: null, tier: "Casual Starter", estimatedEarnings: "$500 - $1,500 / month", score: 15 });
    expect(countRows(database.sqlite, "earnings_results")).toBe(1);
  });

  test("valid with a quiz result id, which is kept", async () => {
    const { request } = testApp();
    const quiz = await (await request("/api/quiz/result", postJson({ archetype: "Dominatrix", answers: Array(15).fill("B") }))).json();
    const highest = Array.from({ length: 15 }, () => 3);
    const res = await request(
      "/api/earnings/result",
      postJson({ quizResultId: quiz.id, tier: "Power Earner", estimatedEarnings: "$5,000 - $15,000+ / month", score: 45, answers: highest }),
    );
    expect(res.status).toBe(201);
    const { id } = await res.json();
    expect((await (await request(`/api/earnings/result/${id}`)).json()).quizResultId).toBe(quiz.id);
  });

  test.each(invalid)("$name: $status, nothing stored", async ({ body, raw, status, message }) => {
    const { request, database } = testApp();
    const res = await request("/api/earnings/result", postJson(body, { raw }));
    expect(res.status).toBe(status);
    const json = await res.json();
    expect(json.error).toMatch(message);
    expect(countRows(database.sqlite, "earnings_results")).toBe(0);
  });

  test("a disagreeing body says which fields and what was expected", async () => {
    const { request } = testApp();
    const res = await request("/api/earnings/result", postJson({ ...valid, tier: "Hustler Mode", score: 20 }));
    const body = await res.json();
    expect(body.details).toEqual([
      { field: "tier", message: 'Expected "Casual Starter" for these answers' },
      { field: "score", message: "Expected 15 (the sum of the answers)" },
    ]);
  });
});

describe("GET /api/earnings/result/:id", () => {
  test("unknown id: 404 JSON", async () => {
    const { request } = testApp();
    const res = await request("/api/earnings/result/unknown");
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe("No earnings result with that id.");
  });
});
