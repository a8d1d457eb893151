import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { archetypeProfile } from "#server/features/quiz/content.ts";
import type { Letter } from "#shared/features/quiz/constants.ts";
import { scoringTable } from "#shared/features/quiz/content.ts";
import { archetypeProfileRead, quizResultRead } from "#shared/features/quiz/reads.ts";
import { archetypeShares } from "#shared/features/quiz/share.ts";
import { renderAt } from "#tests/support/render.tsx";
import QuizResultPage from "./quiz-result-page.tsx";
import { ArchetypeMix, ShareResult } from "./result-share.tsx";

const letters = (s: string) => s.split("") as Letter[];
const realNavigator = { share: navigator.share, clipboard: navigator.clipboard };

afterEach(() => {
  cleanup();
  Object.defineProperty(navigator, "share", { value: realNavigator.share, configurable: true });
  Object.defineProperty(navigator, "clipboard", { value: realNavigator.clipboard, configurable: true });
});

/** The chart's rows as a reader hears them: the name and the percentage. */
const rows = () =>
  within(within(screen.getByRole("region", { name: "Your top three" })).getByRole("list"))
    .getAllByRole("listitem")
    .map((li) => li.textContent?.replace(/\s+/g, " ").trim());

test("three rows with their share as text; the runner-up gets its own line", () => {
  renderAt("/", <ArchetypeMix answers={letters("AAAAAAADDDDCCCC")} />);
  expect(screen.getByRole("heading", { name: "Your top three" })).toBeTruthy();
  const shown = rows();
  expect(shown).toHaveLength(3);
  for (const row of shown) expect(row).toMatch(/^[A-Za-z /]+ \d{1,3}%$/);
  // The bars repeat the numbers and are hidden from screen readers.
  for (const bar of document.querySelectorAll(".mix-bar")) expect(bar.getAttribute("aria-hidden")).toBe("true");
  const runnerUp = shown[1]!.replace(/ \d+%$/, "");
  expect(screen.getByText(`Your runner-up is ${runnerUp}.`)).toBeTruthy();
});

test("archetypes without a point are not charted", () => {
  renderAt("/", <ArchetypeMix answers={[]} />);
  expect(screen.queryByRole("heading", { name: "Your top three" })).toBeNull();
});

test("Share copies the archetype-only address when there is no share sheet, and says so", async () => {
  Object.defineProperty(navigator, "share", { value: undefined, configurable: true });
  const copied: string[] = [];
  Object.defineProperty(navigator, "clipboard", {
    value: { writeText: async (text: string) => void copied.push(text) },
    configurable: true,
  });
  renderAt("/", <ShareResult archetype="Submissive / Brat" />);
  const address = "http://localhost/quiz/result?archetype=Submissive%20%2F%20Brat";
  await waitFor(() => expect(screen.getByRole("link", { name: address })).toBeTruthy());
  await act(async () => fireEvent.click(screen.getByRole("button", { name: "Share" })));
  expect(copied).toEqual([address]);
  await waitFor(() => expect(screen.getByRole("status").textContent).toMatch(/^Link copied/));
});

test("Share opens the share sheet with the same address where the browser has one", async () => {
  const shared: ShareData[] = [];
  Object.defineProperty(navigator, "share", {
    value: async (data: ShareData) => void shared.push(data),
    configurable: true,
  });
  renderAt("/", <ShareResult archetype="Couple" />);
  await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Share" })));
  expect(shared.map((d) => d.url)).toEqual(["http://localhost/quiz/result?archetype=Couple"]);
});

test("a saved result's page charts its answers, and its social tags name the archetype only", async () => {
  const answers = letters("BBBBBBBBBBBBBBB");
  const id = "saved-result-1";
  const view = renderAt(`/quiz/result?archetype=Dominatrix&id=${id}`, <QuizResultPage />);
  act(() => {
    view.queryClient.setQueryData([quizResultRead.key({ id })], {
      id,
      archetype: "Dominatrix",
      answers,
      createdAt: "2026-01-01T00:00:00Z",
    });
    view.queryClient.setQueryData([archetypeProfileRead.key({ name: "Dominatrix" })], archetypeProfile("Dominatrix"));
  });
  await screen.findByRole("heading", { name: "Your top three" });
  expect(rows()[0]).toMatch(/^Dominatrix \d+%$/);
  const canonical = document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? "";
  expect(canonical).toBe("/quiz/result?archetype=Dominatrix");
  expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).not.toContain(id);
  expect(screen.getByRole("link", { name: /archetype=Dominatrix$/ }).getAttribute("href")).toBe(
    "/quiz/result?archetype=Dominatrix",
  );
});

test("a tie on points at the top is said as one; without a tie nothing is added", () => {
  // Answer sets made from a few letters, until one ties at the top and one does not.
  const candidates: Letter[][] = [];
  for (const a of "ABCD")
    for (const b of "ABCD") for (let n = 0; n <= 15; n++) candidates.push(letters(a.repeat(n) + b.repeat(15 - n)));
  const topTie = (answers: Letter[]) => {
    const shares = archetypeShares(answers, scoringTable);
    return shares.filter((s) => s.points === shares[0]!.points).length;
  };
  const tied = candidates.find((answers) => topTie(answers) === 2)!;
  const clear = candidates.find((answers) => topTie(answers) === 1)!;
  expect(tied).toBeDefined();
  renderAt("/", <ArchetypeMix answers={tied} />);
  expect(screen.getByText(/Your top two are tied on points: the quiz names the one it lists first/)).toBeTruthy();
  // The second is not a runner-up but its equal.
  expect(screen.getByText(/^Tied with it is /)).toBeTruthy();
  expect(screen.queryByText(/^Your runner-up is /)).toBeNull();
  cleanup();
  renderAt("/", <ArchetypeMix answers={clear} />);
  expect(screen.queryByText(/tied on points/)).toBeNull();
});

test("with points for only two archetypes the heading says two", () => {
  // Every answer the same letter: its base archetype and the extras of those answers only.
  const two = ["A", "B", "C", "D"]
    .map((a) => letters(a.repeat(15)))
    .find((answers) => archetypeShares(answers, scoringTable).filter((s) => s.points > 0).length === 2);
  expect(two).toBeDefined();
  renderAt("/", <ArchetypeMix answers={two!} />);
  expect(screen.getByRole("heading", { name: "Your top two" })).toBeTruthy();
  expect(screen.getAllByRole("listitem")).toHaveLength(2);
});
