import { describe, expect, test } from "bun:test";
import { createQuizResult } from "#tests/support/factories.ts";
import { refusedFormScenarios, runScenarios, scenarioApp } from "#tests/support/scenario.ts";

// The calculator's last step without JavaScript: a urlencoded form posted to /quiz/earnings.
const form = { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" };
const post = { method: "POST", path: "/quiz/earnings", headers: form } as const;

describe("POST /quiz/earnings (the form's last step)", () => {
  test("all the answers are scored, saved with the quiz result and the browser sent to the tier (303)", async () => {
    const api = await scenarioApp();
    const quiz = await createQuizResult(api.db);
    const res = await api.check({
      ...post,
      body: `quizId=${quiz.id}&answers=${"3".repeat(15)}`,
      status: 303,
      rows: { earnings_results: 1 },
    });
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/quiz\/earnings\?tier=Power%20Earner&id=[\w-]{22}$/);
    const id = new URL(location, "http://x").searchParams.get("id");
    await api.check({
      path: `/api/earnings/result/${id}`,
      status: 200,
      contains: { id, tier: "Power Earner", score: 45, quizResultId: quiz.id, answers: Array(15).fill(3) },
    });
    await api.check({ path: location, status: 200, contains: ["Power Earner"] });
  });

  test("an unknown quiz result is left out, as the script leaves it out", async () => {
    const api = await scenarioApp();
    const res = await api.check({
      ...post,
      body: `quizId=gone&answers=${"1".repeat(15)}`,
      status: 303,
      rows: { earnings_results: 1 },
    });
    const id = new URL(res.headers.get("location")!, "http://x").searchParams.get("id");
    await api.check({
      path: `/api/earnings/result/${id}`,
      status: 200,
      contains: { tier: "Casual Starter", quizResultId: null },
    });
  });
});

runScenarios(
  "POST /quiz/earnings refuses",
  refusedFormScenarios(post, "earnings_results", [
    ["no answers", "quizId=x", 422],
    ["14 answers", `answers=${"2".repeat(14)}`, 422],
    ["16 answers", `answers=${"2".repeat(16)}`, 422],
    ["a 4", `answers=${"2".repeat(14)}4`, 422],
    ["letters", `answers=${"A".repeat(15)}`, 422],
    [
      "JSON instead of a form",
      JSON.stringify({ answers: "2".repeat(15) }),
      415,
      { "content-type": "application/json" },
    ],
  ]),
);
