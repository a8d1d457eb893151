import { Database } from "bun:sqlite";
import { join } from "node:path";
import { expect, signIn, test } from "./fixtures.ts";

// The analytics page on a site of the journey's own, with counts written straight into its
// database (SQLite in WAL mode lets this test write beside the running server).
test.describe.configure({ timeout: 90_000 });

function serverDatabase(dataDir: string): Database {
  const db = new Database(join(dataDir, "app.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("PRAGMA wal_autocheckpoint = 0"); // only the server checkpoints (decision 059)
  return db;
}

const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);

/**
 * The counts are laid out by UTC day, and today's are counted live: a journey that ran across
 * midnight would see its "today" become yesterday under it. Close to midnight, it starts after.
 */
async function clearOfMidnight(timeout: number) {
  const left = 86_400_000 - (Date.now() % 86_400_000);
  if (left > 90_000) return;
  test.setTimeout(timeout + left);
  await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

function insertCounts(db: Database) {
  const offer = db
    .query("SELECT id, title, link_slug AS slug FROM affiliate_offers WHERE link_slug IS NOT NULL LIMIT 1")
    .get() as {
    id: number;
    title: string;
    slug: string;
  };
  const post = db.query("SELECT slug, title FROM blog_posts LIMIT 1").get() as { slug: string; title: string };
  const put = db.prepare(
    "INSERT INTO analytics_daily (day, metric, key, count) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET count = excluded.count",
  );
  db.transaction(() => {
    // Today as this test writes it: the scripted visit before it counted a visitor of its own.
    db.run("DELETE FROM analytics_daily WHERE day = ?", [day(0)]);
    db.run("DELETE FROM analytics_visitors WHERE day = ?", [day(0)]);
    for (let ago = 1; ago < 14; ago++) {
      put.run(day(ago), "visitors", "", 20 + ((ago * 7) % 13));
      put.run(day(ago), "pageview", "home", 40 + ago);
    }
    for (const [step, count] of [
      ["home", 120],
      ["quiz-start", 60],
      ["result", 45],
      ["calculator", 20],
      ["starter-kit", 12],
      ["lesson", 8],
      ["click", 5],
    ] as const)
      put.run(day(2), "funnel", step, count);
    put.run(day(2), "offer_view", String(offer.id), 80);
    put.run(day(2), "click", `${offer.slug}/offer`, 6);
    put.run(day(2), "click", "platform-one/footer", 9);
    // Clicks of new visitors beyond the daily limits: in the total, not by link.
    put.run(day(2), "click", "(over the limit)", 40);
    put.run(day(2), "post_view", post.slug, 33);
    put.run(day(2), "module_view", "2", 14);
    put.run(day(2), "module_quiz", "2/passed", 3);
    put.run(day(2), "referrer", "search.example", 17);
    put.run(day(2), "utm_source", "newsletter", 4);
    put.run(day(2), "quiz_finish", "Girl Next Door", 7);
    put.run(day(2), "calculator_finish", "rising", 2);
    put.run(day(2), "bot", "user-agent", 25);
    // Today: raw visitor rows, counted live (home, and home + quiz start).
    const raw = db.prepare("INSERT OR IGNORE INTO analytics_visitors (day, visitor, steps) VALUES (?, ?, ?)");
    for (let i = 0; i < 6; i++) raw.run(day(0), `e2e-visitor-${i}`, i % 2 ? 3 : 1);
  })();
  return { offer, post };
}

test("charts and tables of the counts, in both themes, on a phone, the period switched by keyboard", async ({
  page,
  site,
  scan,
}, testInfo) => {
  await clearOfMidnight(testInfo.timeout);
  const db = serverDatabase(site.dataDir);
  const { offer, post } = insertCounts(db);
  db.close();

  await signIn(page);
  await page.goto("/admin/analytics?days=7");
  const nav = page.getByRole("navigation", { name: "Admin sections" });
  await expect(nav.getByRole("link", { name: "Analytics" })).toHaveAttribute("aria-current", "page");
  await expect(page).toHaveTitle("Analytics - Admin Dashboard");

  // The line chart is drawn, and its numbers are a table away.
  const chart = page.getByRole("img", { name: /visitors over the last 7 days/ });
  await expect(chart.locator("canvas")).toHaveCount(1);
  await page.getByText("Show as table").click();
  const perDay = page.getByRole("table", { name: "Visitors per day" });
  await expect(perDay.getByRole("row")).toHaveCount(8);
  // Today's six raw visitor rows, counted live.
  await expect(perDay.getByRole("row", { name: new RegExp(`^${day(0)} 6 `) })).toBeVisible();

  const funnel = page.getByRole("table", { name: "Funnel" });
  await expect(funnel.getByRole("row", { name: /Quiz started/ })).toContainText("63");
  await expect(funnel.getByRole("row", { name: /Result viewed/ })).toContainText("71.4%");
  await expect(page.getByRole("table", { name: "Offers" }).getByRole("row", { name: offer.title })).toContainText(
    "7.5%",
  );
  await expect(page.getByRole("table", { name: "Top posts" }).getByRole("row", { name: post.title })).toContainText(
    "33",
  );
  await expect(page.getByRole("table", { name: "Bot share" })).toContainText("Bots: a known bot's user agent");
  // The day some counts went over the daily limits is named, in words.
  await expect(page.getByRole("note")).toContainText(`On ${day(2)} some events were over the daily limits`);
  await expect(
    page.getByRole("table", { name: "Clicks per link", exact: true }).getByRole("row", { name: /over the limit/ }),
  ).toContainText("40");
  await expect(page.getByRole("link", { name: /Download CSV/ })).toHaveAttribute(
    "href",
    "/api/admin/analytics.csv?days=7",
  );

  // Both themes: axe, and the chart drawn again in the other theme's colours.
  const pixels = () => chart.locator("canvas").evaluate((c: HTMLCanvasElement) => c.toDataURL());
  const before = await pixels();
  await scan();
  await page.getByRole("button", { name: /Switch to (dark|light) theme/ }).click();
  await expect.poll(pixels).not.toBe(before);
  await expect(chart.locator("canvas")).toHaveCount(1);
  await scan();

  // A phone: nothing scrolls sideways, the chart fits its container.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect
    .poll(() => chart.locator("canvas").evaluate((c) => c.getBoundingClientRect().right))
    .toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // The period by keyboard: the links of the switch, Enter on "30 days".
  const periods = page.getByRole("navigation", { name: "Period" });
  await periods.getByRole("link", { name: "7 days" }).focus();
  await page.keyboard.press("Tab");
  await expect(periods.getByRole("link", { name: "30 days" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/analytics\?days=30$/);
  await expect(periods.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("img", { name: /visitors over the last 30 days/ })).toBeVisible();
  await expect(page.getByText(/vs previous 30 days|nothing counted in the previous 30 days/).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
