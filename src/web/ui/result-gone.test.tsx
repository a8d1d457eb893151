import { afterEach, expect, test } from "bun:test";
import { cleanup, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { testApp } from "#tests/support/app.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import TierResultPage from "#web/features/earnings/tier-result-page.tsx";
import StarterKitPage from "#web/features/products/starter-kit-page.tsx";
import QuizResultPage from "#web/features/quiz/quiz-result-page.tsx";
import { matchPage } from "#web/routes.ts";

afterEach(cleanup);

// A saved result that is no longer kept, reached in the browser (the read answers 404): the
// tab says the result is gone, and the way on leads to a new result of the same kind.
test.each<[string, string, ReactNode, string, string, string]>([
  [
    "an earnings estimate",
    "/quiz/earnings?tier=Power%20Earner&id=gone",
    <TierResultPage key="tier" />,
    "Earnings Result No Longer Here | Cam Guide",
    "Calculate Again",
    "/quiz/earnings",
  ],
  [
    "a quiz result",
    "/quiz/result?id=gone",
    <QuizResultPage key="quiz" />,
    "Quiz Result No Longer Here | Cam Guide",
    "Retake the Quiz",
    "/quiz",
  ],
  [
    "a starter kit",
    "/quiz/starter-kit?quizId=gone",
    <StarterKitPage key="kit" />,
    "Starter Kit No Longer Here | Cam Guide",
    "Retake the Quiz",
    "/quiz",
  ],
])(
  "%s that is gone: its title says so, and its button leads to a new one of the same kind",
  async (_, address, page, title, action, href) => {
    routeFetchTo(testApp().request);
    renderAt(address, page);
    await screen.findByRole("heading", { level: 1, name: "This result is no longer here" });
    expect(document.title).toBe(title);
    const next = screen.getByRole("button", { name: action });
    expect(next.getAttribute("href")).toBe(href);
    // The way on is that page itself, not another one sharing its path.
    expect(matchPage(href, new URLSearchParams()).page.id).toBe(href === "/quiz" ? "quiz" : "earnings");
  },
);
