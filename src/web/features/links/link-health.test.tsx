import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { AdminLink } from "#shared/features/links/contract.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import {
  deactivateLabel,
  HealthBadge,
  healthCounts,
  healthDetails,
  LinkHealthPanel,
  LinkHealthSummary,
} from "./link-health.tsx";

afterEach(cleanup);

const link = (overrides: Partial<AdminLink> = {}): AdminLink => ({
  id: 1,
  slug: "platform-one",
  destination: "https://example.com/join",
  active: true,
  fallbackDestination: null,
  notes: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  lastCheckedAt: "2026-01-02T10:00:00.000Z",
  lastStatus: 200,
  finalUrl: "https://example.com/join",
  hopCount: 0,
  healthClass: "healthy",
  consecutiveFailures: 0,
  autoFallbackAfter: null,
  ...overrides,
});

test.each([
  [{ healthClass: "healthy" }, "Healthy", "status 200"],
  [{ healthClass: "redirected", hopCount: 2, finalUrl: "https://landing.example/" }, "Redirected", "2 redirects"],
  [{ healthClass: "broken", lastStatus: 404, consecutiveFailures: 2 }, "Broken", "2 failed checks in a row"],
  [{ healthClass: "broken", lastStatus: null, consecutiveFailures: 1 }, "Broken", "no answer"],
  [{ healthClass: "blocked", lastStatus: 429 }, "Blocked", "refuses automated checks"],
  [{ healthClass: null, lastCheckedAt: null, lastStatus: null, hopCount: null }, "Not checked yet", "not been checked"],
] as const)("the badge says %p in words, with the details in its title", (overrides, word, detail) => {
  const value = link(overrides as Partial<AdminLink>);
  render(<HealthBadge link={value} />);
  const badge = screen.getByText(word);
  expect(badge.getAttribute("title")).toContain(detail);
  expect(badge.getAttribute("title")).toBe(healthDetails(value));
  if (value.lastCheckedAt) expect(badge.getAttribute("title")).toContain(`ended at ${value.finalUrl}`);
});

test("a link whose failed checks reached the admin's number says its clicks go to the fallback", () => {
  render(
    <HealthBadge
      link={link({ healthClass: "broken", lastStatus: 500, consecutiveFailures: 3, autoFallbackAfter: 3 })}
    />,
  );
  expect(screen.getByText("Clicks go to the fallback")).toBeTruthy();
  cleanup();
  render(
    <HealthBadge
      link={link({ healthClass: "broken", lastStatus: 500, consecutiveFailures: 2, autoFallbackAfter: 3 })}
    />,
  );
  expect(screen.queryByText("Clicks go to the fallback")).toBeNull();
});

test("a broken link's off button says where its clicks will go", () => {
  expect(deactivateLabel(link())).toBe("Deactivate");
  expect(deactivateLabel(link({ healthClass: "broken" }))).toBe("Send clicks back to the page");
  expect(deactivateLabel(link({ healthClass: "broken", fallbackDestination: "https://b.example/" }))).toBe(
    "Send clicks to the fallback",
  );
  expect(deactivateLabel(link({ active: false, healthClass: "broken" }))).toBe("Activate");
});

test("the summary counts only what is there, broken first, with a warning", async () => {
  expect(healthCounts([link(), link({ healthClass: "broken" }), link(), link({ healthClass: null })])).toEqual([
    ["broken", 1],
    ["healthy", 2],
    ["unchecked", 1],
  ]);
  const list = [link({ id: 1 }), link({ id: 2 }), link({ id: 3, healthClass: "broken", lastStatus: 404 })];
  routeFetchTo(async () => Response.json(list));
  renderAt("/admin", <LinkHealthSummary />);
  const summary = await screen.findByRole("complementary", { name: "Link health" });
  expect(summary.textContent).toBe("Needs attention: Links: 1 broken, 2 healthy — Review links");
  expect(summary.className).toContain("warning");
  expect(screen.getByRole("link", { name: "Review links" }).getAttribute("href")).toBe("/admin/links");
});

test("the editor's Health box says when and why clicks go to the fallback, and Check now checks that link", async () => {
  let current = link({
    id: 7,
    healthClass: "broken",
    lastStatus: 404,
    consecutiveFailures: 3,
    autoFallbackAfter: 3,
    fallbackDestination: "https://b.example/",
  });
  const sent: string[] = [];
  routeFetchTo(async (path, init) => {
    sent.push(`${init?.method ?? "GET"} ${path}`);
    if (path === "/api/admin/links/7/check") {
      current = { ...current, healthClass: "healthy", lastStatus: 200, consecutiveFailures: 0 };
      return Response.json({ link: current, reason: "Answered 200." });
    }
    return Response.json([current]);
  });
  renderAt("/admin/links", <LinkHealthPanel id={7} />);
  const note = await screen.findByRole("status");
  expect(note.textContent).toContain("Clicks go to the fallback by themselves");
  expect(note.textContent).toContain("the last 3 checks found the destination broken");
  expect(note.textContent).toContain("Visitors go to https://b.example/");
  fireEvent.click(screen.getByRole("button", { name: "Check now" }));
  await waitFor(() => expect(screen.getByText("Healthy")).toBeTruthy());
  expect(sent).toContain("POST /api/admin/links/7/check");
  expect(screen.queryByRole("status")).toBeNull();
});
