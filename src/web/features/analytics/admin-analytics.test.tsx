import { afterEach, expect, test } from "bun:test";
import { cleanup, render, screen, within } from "@testing-library/react";
import { analyticsDaily } from "#server/features/analytics/table.ts";
import { addDays, utcDay } from "#server/lib/utc-day.ts";
import { METRICS, OVER_LIMIT_KEY } from "#shared/features/analytics/constants.ts";
import type { AnalyticsReport } from "#shared/features/analytics/report.ts";
import { adminApp } from "#tests/support/admin.ts";
import { createOffer } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi } from "#web/admin/admin-client.ts";
import { AnalyticsTab, EMPTY_ANALYTICS, overLimitText, Report } from "./admin-analytics.tsx";

afterEach(cleanup);

const table = (name: string) => screen.getByRole("table", { name });
const rows = (name: string) =>
  within(table(name))
    .getAllByRole("row")
    .slice(1)
    .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent));

test("with nothing counted the page says so, and still offers the periods and the CSV", async () => {
  const t = await adminApp({ seed: false });
  routeFetchTo(t.asAdmin);
  renderAt("/admin/analytics", <AnalyticsTab />);
  expect(await screen.findByText(EMPTY_ANALYTICS)).toBeTruthy();
  const periods = within(screen.getByRole("navigation", { name: "Period" })).getAllByRole("link");
  expect(periods.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("aria-current")])).toEqual([
    ["7 days", "/admin/analytics?days=7", null],
    ["30 days", "/admin/analytics?days=30", "page"],
    ["90 days", "/admin/analytics?days=90", null],
  ]);
  const csv = screen.getByRole("link", { name: /Download CSV/ }).getAttribute("href")!;
  expect(csv).toBe(`${adminApi["analytics.csv"]["~path"]}?days=30`);
  // The link is the download itself.
  expect((await t.asAdmin(csv)).headers.get("content-disposition")).toMatch(/^attachment; filename=/);
  expect(screen.queryByRole("table")).toBeNull();
});

test("every chart has its numbers in a table, read from the server", async () => {
  const t = await adminApp({ seed: false });
  const offer = await createOffer(t.db, { title: "Ring light" });
  const day = addDays(utcDay(), -1);
  await t.db.insert(analyticsDaily).values([
    { day, metric: METRICS.visitors, key: "", count: 20 },
    { day, metric: METRICS.funnel, key: "home", count: 20 },
    { day, metric: METRICS.funnel, key: "quiz-start", count: 5 },
    { day, metric: METRICS.offerView, key: String(offer.id), count: 10 },
    { day, metric: METRICS.click, key: `${offer.linkSlug}/offer`, count: 3 },
    { day, metric: METRICS.referrer, key: "search.example", count: 4 },
    { day, metric: METRICS.pageview, key: "home", count: 30 },
    { day, metric: METRICS.bot, key: "user-agent", count: 10 },
  ]);
  routeFetchTo(t.asAdmin);
  renderAt("/admin/analytics", <AnalyticsTab />);
  await screen.findByRole("table", { name: "Funnel" });
  expect(screen.queryByText(EMPTY_ANALYTICS)).toBeNull();

  // The chart has a name that says where its numbers are, and the table beside it has them.
  expect(screen.getByRole("img", { name: /20 visitors over the last 30 days/ })).toBeTruthy();
  const perDay = rows("Visitors per day");
  expect(perDay).toHaveLength(30);
  expect(perDay.at(-2)?.slice(0, 2)).toEqual([day, "20"]);
  expect(screen.getByText("Show as table")).toBeTruthy();

  expect(rows("Funnel").slice(0, 3)).toEqual([
    ["Home page", "20", "–", "–"],
    ["Quiz started", "5", "25%", "15"],
    ["Result viewed", "0", "0%", "5"],
  ]);
  expect(rows("Offers")).toEqual([["Ring light", "10", "3", "30%"]]);
  expect(rows("Clicks per placement")).toEqual([["Offer cards", "3"]]);
  expect(rows("Referrers")).toEqual([["search.example", "4"]]);
  expect(rows("Bot share")).toEqual([
    ["People (page views)", "30"],
    ["Bots: a known bot's user agent", "10"],
    ["Bots: no user agent", "0"],
    ["Bots: HEAD requests", "0"],
    ["Bots: prefetches", "0"],
    ["Bots: over one visitor's daily limit", "0"],
  ]);
  expect(screen.getByText(/Bots made 25% of counted requests/)).toBeTruthy();
  // Sections with nothing counted say so in words.
  expect(
    within(screen.getByRole("region", { name: "Top posts" })).getByText("Nothing counted in this period."),
  ).toBeTruthy();
  // Totals: the number, and the change in words (not only in colour).
  const visitors = screen.getByText("Visitors", { selector: ".analytics-total-label" }).closest("li")!;
  expect(visitors.textContent).toContain("nothing counted in the previous 30 days");
});

test("the change against the previous period is written out", () => {
  const report = {
    days: 7,
    from: "2026-01-08",
    to: "2026-01-14",
    previousFrom: "2026-01-01",
    previousTo: "2026-01-07",
    empty: false,
    overLimitDays: [],
    totals: [
      { id: "visitors", label: "Visitors", current: 150, previous: 100, change: 50 },
      { id: "clicks", label: "Link clicks", current: 5, previous: 10, change: -50 },
    ],
    visitors: [],
    funnel: [],
    offers: [],
    links: [],
    placements: [],
    clicks: [],
    posts: [],
    modules: [],
    referrers: [],
    utmSources: [],
    quizFinishes: [],
    calculatorFinishes: [],
    bots: { reasons: [], bots: 0, humans: 0, share: null },
  } as unknown as AnalyticsReport;
  const { container } = render(<Report report={report} />);
  const cards = [...container.querySelectorAll(".analytics-totals li")].map((li) => li.textContent);
  expect(cards).toEqual(["Visitors150up 50% vs previous 7 days (100)", "Link clicks5down 50% vs previous 7 days (10)"]);
});

test("days on which visits went over the daily limits are named, and their clicks are in the totals", async () => {
  const t = await adminApp({ seed: false });
  const today = utcDay();
  const days = [-5, -3, -1].map((offset) => addDays(today, offset));
  await t.db.insert(analyticsDaily).values([
    { day: days[0]!, metric: METRICS.visitors, key: "", count: 2 },
    { day: days[0]!, metric: METRICS.click, key: "platform-a/footer", count: 2 },
    ...days.map((day) => ({ day, metric: METRICS.click, key: OVER_LIMIT_KEY, count: 100 })),
    { day: days[2]!, metric: METRICS.pageview, key: OVER_LIMIT_KEY, count: 40 },
    // Outside the period: not named.
    { day: addDays(today, -40), metric: METRICS.click, key: OVER_LIMIT_KEY, count: 7 },
  ]);
  routeFetchTo(t.asAdmin);
  renderAt("/admin/analytics?days=7", <AnalyticsTab />);
  const note = await screen.findByRole("note");
  expect(note.textContent).toBe(
    `On 3 days in this period (${days[0]}, ${days[1]} and ${days[2]}) some events were over the daily limits (too many new visitors from one network, or in all): they are counted only in the totals, as "(over the limit)", not by page, link or source, and not as visitors or in the funnel.`,
  );
  // The totals stay honest: every click is in them.
  const clicks = screen.getByText("Link clicks", { selector: ".analytics-total-label" }).closest("li")!;
  expect(clicks.querySelector("strong")?.textContent).toBe("302");
  expect(rows("Clicks per link")).toEqual([
    [OVER_LIMIT_KEY, "300"],
    ["platform-a", "2"],
  ]);
});

test("a period with nothing over the limits has no such note; one day and many days are said in words", async () => {
  const t = await adminApp({ seed: false });
  await t.db.insert(analyticsDaily).values([{ day: utcDay(), metric: METRICS.pageview, key: "home", count: 3 }]);
  routeFetchTo(t.asAdmin);
  renderAt("/admin/analytics", <AnalyticsTab />);
  await screen.findByRole("table", { name: "Funnel" });
  expect(screen.queryByRole("note")).toBeNull();
  expect(overLimitText(["2026-01-05"])).toStartWith("On 2026-01-05 some events were over the daily limits");
  const many = Array.from({ length: 12 }, (_, i) => `2026-01-${String(i + 10)}`);
  expect(overLimitText(many)).toStartWith("On 12 days in this period (the latest 2026-01-21) some events");
});
