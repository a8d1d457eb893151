import { afterEach, expect, test } from "bun:test";
import { act } from "@testing-library/react";
import { WriteLimiter } from "#server/plugins/write-limit.ts";
import { API } from "#shared/paths.ts";
import { testApp } from "#tests/support/app.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { saveResult } from "./save-result.ts";

afterEach(() => act(() => useToastStore.getState().remove()));

const QUIZ = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
const FAILURE = "Failed to save quiz result. Please try again.";

test("over the write limit the visitor is told how long to wait, not only that it failed", async () => {
  const { request } = testApp({
    testHooks: { writeLimiter: new WriteLimiter({ count: 1, windowSeconds: 60 }, { now: () => 0 }) },
  });
  routeFetchTo(request);
  expect(await saveResult(API.quizResults, QUIZ, FAILURE)).toMatchObject({ id: expect.any(String) });
  expect(await saveResult(API.quizResults, QUIZ, FAILURE)).toBeNull();
  expect(useToastStore.getState().toasts[0]?.description).toMatch(
    /^Too many submissions .* try again in 60 seconds\.$/,
  );
});

test("any other refusal keeps the page's own message", async () => {
  const { request } = testApp({ testHooks: { writeLimiter: null } });
  routeFetchTo(request);
  expect(await saveResult(API.quizResults, { archetype: "Nobody" }, FAILURE)).toBeNull();
  expect(useToastStore.getState().toasts[0]?.description).toBe(FAILURE);
});

test("over the day's limits on saved results the visitor is told so, and that it was not saved", async () => {
  const { request } = testApp({ dailyLimits: { resultsPerClient: 1 }, testHooks: { writeLimiter: null } });
  routeFetchTo(request);
  expect(await saveResult(API.quizResults, QUIZ, FAILURE)).toMatchObject({ id: expect.any(String) });
  expect(await saveResult(API.quizResults, QUIZ, FAILURE)).toBeNull();
  expect(useToastStore.getState().toasts[0]?.description).toBe(
    "Too many quiz results were saved from your network today (the limit is 1 a day). Yours was not saved: please try again tomorrow.",
  );
});

test("when the site keeps no more results today, the visitor reads that sentence", async () => {
  const { request } = testApp({ dailyLimits: { results: 1 }, testHooks: { writeLimiter: null } });
  routeFetchTo(request);
  expect(await saveResult(API.quizResults, QUIZ, FAILURE)).toMatchObject({ id: expect.any(String) });
  expect(await saveResult(API.quizResults, QUIZ, FAILURE)).toBeNull();
  expect(useToastStore.getState().toasts[0]?.description).toMatch(/^The site has saved as many quiz results today/);
});
