import { afterEach, expect, test } from "bun:test";
import { cleanup, screen, within } from "@testing-library/react";
import { analyticsDaily } from "#server/features/analytics/table.ts";
import { adminRecoveryCodes } from "#server/features/auth/table.ts";
import { backupRuns } from "#server/features/backups/table.ts";
import { utcDay } from "#server/lib/utc-day.ts";
import { METRICS } from "#shared/features/analytics/constants.ts";
import { adminApp, enrolTwoFactor } from "#tests/support/admin.ts";
import { createLink, createPost, createSettings } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi } from "#web/admin/admin-client.ts";
import { LinksTab } from "#web/features/links/admin-links.tsx";
import { HomeTab } from "./admin-home.tsx";

afterEach(cleanup);

/** The real server on a database with only the settings row; the component's requests go to it. */
async function home(options: { analytics?: boolean } = {}) {
  const t = await adminApp({ seed: false, ...options });
  await createSettings(t.db);
  routeFetchTo(t.asAdmin);
  return t;
}

const card = (name: string) => screen.getByRole("region", { name });
const hrefOf = (scope: HTMLElement, name: string | RegExp, role: "link" | "button" = "link") =>
  within(scope).getByRole(role, { name }).getAttribute("href");

test("a new site: each card says what is missing; first to do: a backup and the public address", async () => {
  await home();
  renderAt("/admin", <HomeTab />);
  const attention = await screen.findByRole("region", { name: "Needs your attention" });
  expect(
    within(attention)
      .getAllByRole("listitem")
      .map((item) => item.textContent),
  ).toEqual([
    "No backup has been made yet: a broken disk would lose every post and setting. Set up backups",
    "The site's public address is not set: the sitemap, the RSS feed and links shared to search engines need it. Set the address",
  ]);
  expect(hrefOf(attention, "Set the address")).toBe("/admin/settings");
  expect(hrefOf(attention, "Set up backups")).toBe("/admin/backups");

  expect(card("Posts").textContent).toContain("No posts yet.");
  expect(hrefOf(card("Posts"), "All posts")).toBe("/admin/posts");
  // The settings' two platform links, not checked yet: counted, not flagged.
  expect(card("Links").textContent).toContain("2 not checked yet");
  expect(card("Links").textContent).toContain("Links are not checked automatically");
  expect(card("Last backup").textContent).toContain("Backups are not set up yet");
  expect(hrefOf(card("Last backup"), "Set up backups")).toBe("/admin/backups");
  expect(card("Last 7 days").textContent).toContain("Nothing counted in the last 7 days yet.");
  expect(hrefOf(card("Last 7 days"), "Open Analytics")).toBe("/admin/analytics?days=7");

  const shortcuts = screen.getByRole("navigation", { name: "Shortcuts" });
  expect(hrefOf(shortcuts, "Write a post", "button")).toBe("/admin/posts/new");
  expect(hrefOf(shortcuts, "Add an offer", "button")).toBe("/admin/offers/new");
  expect(hrefOf(shortcuts, "Add a link", "button")).toBe("/admin/links/new");
  expect(hrefOf(shortcuts, "View the site", "button")).toBe("/");
});

test("a failed backup and a broken link come first; the cards count posts, links and the week's visits", async () => {
  const t = await home();
  await t.asAdmin(adminApi.settings.address, { method: "PUT", json: { origin: "https://site.example" } });
  await createPost(t.db);
  await createPost(t.db, { published: false });
  await createPost(t.db, { publishAt: new Date(Date.now() + 86_400_000) });
  await createLink(t.db, { healthClass: "broken", lastStatus: 404, lastCheckedAt: new Date() });
  await t.db.insert(backupRuns).values({ trigger: "schedule", status: "failed", error: "The disk is full." });
  await t.db.insert(analyticsDaily).values([
    { day: utcDay(), metric: METRICS.visitors, key: "", count: 12 },
    { day: utcDay(), metric: METRICS.click, key: "platform-one/footer", count: 1 },
  ]);
  renderAt("/admin", <HomeTab />);
  const attention = await screen.findByRole("region", { name: "Needs your attention" });
  const items = within(attention).getAllByRole("listitem");
  expect(items.map((item) => item.textContent)).toEqual([
    "The last backup failed: The disk is full. Open Backups",
    "1 link broken: visitors who click it may not get where you send them. Review these links",
  ]);
  expect(hrefOf(items[1]!, "Review these links")).toBe("/admin/links?health=attention");

  expect(
    within(card("Posts"))
      .getAllByRole("listitem")
      .map((li) => li.textContent),
  ).toEqual(["1 published", "1 draft", "1 scheduled"]);
  expect(card("Links").textContent).toContain("1 broken");
  expect(hrefOf(card("Links"), "Review the 1 link needing attention")).toBe("/admin/links?health=attention");
  expect(card("Last backup").textContent).toContain("Failed");
  expect(card("Last backup").textContent).toContain("The disk is full.");
  expect(
    within(card("Last 7 days"))
      .getAllByRole("listitem")
      .map((li) => li.textContent),
  ).toEqual(["12 visitors", "1 link click"]);
});

test("all well: no attention list; a good backup shows its size; with ANALYTICS off the week says so", async () => {
  const t = await home({ analytics: false });
  await t.asAdmin(adminApi.settings.address, { method: "PUT", json: { origin: "https://site.example" } });
  await t.db.insert(backupRuns).values({
    trigger: "manual",
    status: "ok",
    finishedAt: new Date(),
    size: 3 * 1024 * 1024,
  });
  renderAt("/admin", <HomeTab />);
  expect((await screen.findByRole("region", { name: "Last backup" })).textContent).toContain("Succeeded");
  expect(card("Last backup").textContent).toContain("made by hand, 3.0 MB.");
  expect(screen.queryByRole("region", { name: "Needs your attention" })).toBeNull();
  expect(card("Last 7 days").textContent).toContain("counting is turned off on the server (ANALYTICS=off)");
  expect(within(card("Last 7 days")).queryByRole("link")).toBeNull();
});

test("a public address taken from the sign-in asks to be confirmed", async () => {
  const t = await home();
  t.sqlite.query("UPDATE site_settings SET public_origin = 'https://seen.example'").run();
  renderAt("/admin", <HomeTab />);
  const attention = await screen.findByRole("region", { name: "Needs your attention" });
  expect(attention.textContent).toContain("(https://seen.example) was taken from where you signed in");
  expect(hrefOf(attention, "Confirm the address")).toBe("/admin/settings");
});

test("recovery codes used: how many are left and the way to new ones; none left comes first, said strongly", async () => {
  const t = await home();
  await t.asAdmin(adminApi.settings.address, { method: "PUT", json: { origin: "https://site.example" } });
  await t.db.insert(backupRuns).values({ trigger: "manual", status: "ok", finishedAt: new Date(), size: 1024 });
  await enrolTwoFactor(t.asAdmin);
  // All ten left: nothing to say.
  const first = renderAt("/admin", <HomeTab />);
  await screen.findByRole("region", { name: "Posts" });
  expect(screen.queryByRole("region", { name: "Needs your attention" })).toBeNull();
  first.unmount();

  const codes = await t.db.select().from(adminRecoveryCodes);
  const used = async (n: number) => {
    for (const code of codes.slice(0, n))
      t.sqlite.query("UPDATE admin_recovery_codes SET used = 1, used_at = ? WHERE id = ?").run(Date.now(), code.id);
  };
  await used(3);
  const some = renderAt("/admin", <HomeTab />);
  let item = within(await screen.findByRole("region", { name: "Needs your attention" })).getByRole("listitem");
  expect(item.textContent).toMatch(
    /^A recovery code was used on .+: 7 of 10 left\. If it was not you, change your password too\. Make new recovery codes$/,
  );
  expect(item.querySelector("strong")).toBeNull();
  expect(hrefOf(item, "Make new recovery codes")).toBe("/admin/account");
  some.unmount();

  await used(10);
  await t.db.insert(backupRuns).values({ trigger: "schedule", status: "failed", error: "The disk is full." });
  renderAt("/admin", <HomeTab />);
  const items = within(await screen.findByRole("region", { name: "Needs your attention" })).getAllByRole("listitem");
  item = items[0]!;
  expect(item.querySelector("strong")?.textContent).toBe(
    "You have no recovery codes left: if you lose your phone, you cannot sign in until whoever runs the server turns two-factor sign-in off.",
  );
  expect(hrefOf(item, "Make new recovery codes")).toBe("/admin/account");
  expect(items[1]!.textContent).toContain("The last backup failed");
});

test("the Links list opens with the filter its address names", async () => {
  const t = await home();
  await createLink(t.db, { slug: "gone-away", healthClass: "broken", lastStatus: 404, lastCheckedAt: new Date() });
  renderAt("/admin/links?health=attention", <LinksTab />);
  expect(((await screen.findByRole("combobox", { name: "Health" })) as HTMLSelectElement).value).toBe("attention");
  expect(await screen.findByText("1 of 3 links")).toBeTruthy();
});

test("links a check could not reach while the server was offline are not called broken", async () => {
  const t = await home();
  for (const slug of ["shop-a", "shop-b", "shop-c"])
    await createLink(t.db, { slug, healthClass: "broken", lastStatus: null, lastCheckedAt: new Date() });
  renderAt("/admin", <HomeTab />);
  const attention = await screen.findByRole("region", { name: "Needs your attention" });
  expect(attention.textContent).toContain("This server may have no internet connection");
  const links = card("Links").textContent ?? "";
  expect(links).not.toContain("broken");
  expect(links).toContain("3 not reached by the last check (this server may be offline)");
});
