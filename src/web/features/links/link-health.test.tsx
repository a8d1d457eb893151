import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { AdminLink } from "#shared/features/links/contract.ts";
import { looksOffline, needsAttention, OFFLINE_HINT } from "#shared/features/links/health.ts";
import { requestLine } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { CheckAllLinks, deactivateLabel, HealthBadge, healthDetails, LinkHealthPanel } from "./link-health.tsx";

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
  [{ healthClass: "broken", lastStatus: null, consecutiveFailures: 1 }, "Broken", "No answer from"],
  [{ healthClass: "blocked", lastStatus: 429 }, "Blocked", "refuses automated checks"],
  [{ healthClass: null, lastCheckedAt: null, lastStatus: null, hopCount: null }, "Not checked yet", "not been checked"],
] as const)("the badge says %p in words, with the details in its title", (overrides, word, detail) => {
  const value = link(overrides as Partial<AdminLink>);
  render(<HealthBadge link={value} />);
  const badge = screen.getByText(word);
  expect(badge.getAttribute("title")).toContain(detail);
  expect(badge.getAttribute("title")).toBe(healthDetails(value));
  if (value.lastCheckedAt && value.lastStatus !== null)
    expect(badge.getAttribute("title")).toContain(`ended at ${value.finalUrl}`);
});

test("a check without an answer says there was no answer from the address, not that it ended there", () => {
  const details = healthDetails(link({ healthClass: "broken", lastStatus: null, finalUrl: "https://gone.example/" }));
  expect(details).toContain("(No answer from https://gone.example/)");
  expect(details).not.toContain("ended at");
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
  expect(deactivateLabel(link({ healthClass: "broken" }))).toBe("Turn off: send clicks back to the page");
  expect(deactivateLabel(link({ healthClass: "broken", fallbackDestination: "https://b.example/" }))).toBe(
    "Turn off: send clicks to the fallback",
  );
  expect(deactivateLabel(link({ active: false, healthClass: "broken" }))).toBe("Activate");
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
  const sent = routeFetchTo(async (path) => {
    if (path === at(adminApi.links, { id: 7 }).check["~path"]) {
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
  expect(sent).toContain(requestLine("POST", at(adminApi.links, { id: 7 }).check));
  expect(screen.queryByRole("status")).toBeNull();
});

test("links not checked yet and links that are off need no attention; every checked link without an answer looks offline", () => {
  expect(needsAttention(link({ healthClass: "broken", lastStatus: 404 }))).toBe(true);
  expect(needsAttention(link({ healthClass: "blocked", lastStatus: 403 }))).toBe(true);
  expect(needsAttention(link({ healthClass: null, lastCheckedAt: null, lastStatus: null }))).toBe(false);
  expect(needsAttention(link({ active: false, healthClass: "broken", lastStatus: 404 }))).toBe(false);
  const dead = { healthClass: "broken", lastStatus: null, consecutiveFailures: 0 } as const;
  const list = [
    link({ id: 1, ...dead }),
    link({ id: 2, ...dead }),
    link({ id: 3, active: false, healthClass: null, lastCheckedAt: null, lastStatus: null }),
  ];
  expect(looksOffline(list)).toBe(true);
  // One answer (a 404) is enough to show the server is online: then it is the links.
  expect(looksOffline([...list, link({ id: 4, healthClass: "broken", lastStatus: 404 })])).toBe(false);
});

test("Check all links now: a run that reached nothing says so in its toast", async () => {
  const dead = link({ healthClass: "broken", lastStatus: null });
  routeFetchTo(async (_path, init) =>
    init?.method === "POST"
      ? Response.json({ checked: 2, offline: true, links: [dead, { ...dead, id: 2 }] })
      : Response.json([dead, { ...dead, id: 2 }]),
  );
  renderAt("/admin/links", <CheckAllLinks />);
  fireEvent.click(screen.getByRole("button", { name: "Check all links now" }));
  await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.description)).toContain(OFFLINE_HINT));
});

test("Check all links now: a run longer than the server waits is followed until it ends, showing its progress", async () => {
  const unchecked = link({ healthClass: null, lastCheckedAt: null, lastStatus: null });
  const done = [link({ id: 1 }), link({ id: 2, healthClass: "broken", lastStatus: 404 }), link({ id: 3 })];
  const reads: string[] = [];
  let polls = 0;
  routeFetchTo(async (path, init) => {
    reads.push(`${init?.method ?? "GET"} ${path}`);
    if (path !== adminApi.links.check["~path"]) return Response.json(done);
    if (init?.method === "POST")
      return Response.json(
        { running: true, checked: 1, total: 3, offline: false, links: [unchecked] },
        { status: 202 },
      );
    polls++;
    return Response.json(
      polls === 1
        ? { running: true, checked: 2, total: 3, offline: false, links: [unchecked] }
        : { running: false, checked: 3, total: 3, offline: false, links: done },
    );
  });
  useToastStore.setState({ toasts: [] });
  renderAt("/admin/links", <CheckAllLinks />);
  fireEvent.click(screen.getByRole("button", { name: "Check all links now" }));
  await waitFor(() => expect(screen.getByRole("button", { name: "Checking links (1 of 3)..." })).toBeTruthy());
  await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.title)).toContain("Checked 3 links"), {
    timeout: 5000,
  });
  expect(useToastStore.getState().toasts.map((t) => t.description)).toContain("1 broken: see the Health column.");
  expect(reads.filter((r) => r === requestLine("GET", adminApi.links.check))).toHaveLength(2);
  expect(screen.getByRole("button", { name: "Check all links now" })).toBeTruthy();
});
