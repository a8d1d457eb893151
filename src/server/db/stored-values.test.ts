import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { getTableName, is, Table } from "drizzle-orm";
import { getSettings } from "#server/features/settings/service.ts";
import { consoleLogger, memoryLogger } from "#server/logger.ts";
import { databaseImage, openMemoryCopy, openMemoryDatabase } from "./client.ts";
import { json, table, textId } from "./columns.ts";
import * as schema from "./schema.ts";
import { seedDatabase } from "./seed.ts";
import {
  ANY,
  declaredTables,
  logStoredValuesTo,
  settleStoredValues,
  storedValueProblem,
  storedValues,
} from "./stored-values.ts";

// The rules of value-rules.ts, as restore checks them and as reads meet them. The executable's
// suite (tests/adversarial/restore-values.test.ts) tries the attacks; this checks the mechanism.

const seeded = await (async () => {
  const template = openMemoryDatabase();
  await seedDatabase(template);
  template.sqlite.exec(`
    INSERT INTO quiz_results (id, archetype, answers) VALUES ('q1', 'Girl Next Door', '${JSON.stringify(Array(15).fill("A"))}');
    INSERT INTO media (name, mime, kind, size, width, height, variants) VALUES ('AAAAAAAAAAAAAAAAAAAAAA.png', 'image/png', 'image', 900, 960, 640,
      '[{"name":"AAAAAAAAAAAAAAAAAAAAAA-w480.webp","width":480,"height":320,"size":100}]');
    INSERT INTO analytics_daily (day, metric, key, count) VALUES ('2026-01-02', 'pageview', 'home', 3);`);
  return databaseImage(template);
})();

const fresh = () => openMemoryCopy(seeded);
const log = memoryLogger();

beforeEach(() => {
  log.lines.length = 0;
  logStoredValuesTo(log);
});
afterAll(() => logStoredValuesTo(consoleLogger));

describe("every table and column has its rule", () => {
  test("each table of the schema is declared", () => {
    const tables = Object.values(schema)
      .filter((value) => is(value, Table))
      .map((value) => getTableName(value as Table))
      .sort();
    expect(declaredTables()).toEqual(tables);
  });

  test("a declaration that leaves a column out, or a required JSON column without a fallback, is refused", () => {
    const scratch = table("scratch", { id: textId("id"), body: json<string[]>("body").notNull() });
    expect(() => storedValues(scratch, { id: ANY } as never)).toThrow("scratch.body has no stored-value rule");
    expect(() => storedValues(scratch, { id: ANY, body: ANY })).toThrow("scratch.body needs a declared fallback");
  });

  test("the seed, results, uploads and counts the server writes keep every rule", () => {
    expect(storedValueProblem(fresh().sqlite)).toBeNull();
  });
});

describe("a database about to be restored", () => {
  test.each([
    [
      "a setting out of its range",
      "UPDATE site_settings SET backup_keep = 0",
      "has a row in site_settings (id 1) whose backup_keep is not a value cam-guide saves (Backups to keep must be a whole number from 1 to 365)",
    ],
    [
      "JSON that does not parse",
      `UPDATE site_settings SET disclosure_wording = '{"x":'`,
      "site_settings (id 1) whose disclosure_wording is not valid JSON",
    ],
    [
      "JSON of another shape, named down to its part",
      `UPDATE media SET variants = '[{"name":"../x","width":1,"height":1,"size":1}]'`,
      "whose variants is not a value cam-guide saves (0.name: A smaller copy's name is one the server makes",
    ],
    [
      "a copy of another upload",
      `UPDATE media SET variants = '[{"name":"BBBBBBBBBBBBBBBBBBBBBB-w480.webp","width":1,"height":1,"size":1}]'`,
      "whose variants names a copy of another upload (BBBBBBBBBBBBBBBBBBBBBB-w480.webp)",
    ],
    [
      "a yes or no that is neither",
      "UPDATE blog_posts SET published = 2 WHERE id = 1",
      "(id 1) whose published is not 0 or 1",
    ],
    [
      "a time as text",
      "UPDATE blog_posts SET publish_at = 'soon' WHERE id = 1",
      "blog_posts (id 1) whose publish_at is not a time",
    ],
    [
      "a time no date can hold",
      "UPDATE quiz_results SET created_at = 1e16",
      `quiz_results (id "q1") whose created_at is not a time`,
    ],
    ["an enum's stranger", "UPDATE media SET kind = 'script'", "whose kind is not one of image, video"],
    [
      "text as bytes",
      "UPDATE site_pages SET title = x'41' WHERE slug = 'terms'",
      `site_pages (slug "terms") whose title is not text`,
    ],
    [
      "a count below zero, named by its whole key",
      "UPDATE analytics_daily SET count = -1",
      `analytics_daily (day "2026-01-02", metric "pageview", key "home") whose count is not a value cam-guide saves`,
    ],
    [
      "a cron schedule croner cannot read",
      "UPDATE site_settings SET backup_cron = '99 * * * *'",
      `whose backup_cron is not a value cam-guide saves ("99 * * * *" is not a schedule`,
    ],
  ])("%s", (_label, sql, problem) => {
    const { sqlite } = fresh();
    sqlite.exec(sql);
    expect(storedValueProblem(sqlite)).toContain(problem);
  });

  test("the first value is named, and how many more there are", () => {
    const { sqlite } = fresh();
    sqlite.exec("UPDATE site_settings SET backup_keep = -1, link_check_hours = -1, result_retention_days = -1");
    expect(storedValueProblem(sqlite)).toMatch(/whose backup_keep .* \(and 2 more values cam-guide would not save\)$/);
  });
});

describe("reads of a live database", () => {
  test("a number, JSON or enum that breaks its rule reads as its default, with one line per column", async () => {
    const handle = fresh();
    handle.sqlite.exec(`
      UPDATE site_settings SET disclosure_wording = '{"x":', result_retention_days = -5, backup_cron = 'nightly';
      UPDATE media SET variants = '{{', kind = 'script', width = 0;`);
    for (let i = 0; i < 3; i++) {
      expect((await getSettings(handle.db)).disclosureWording).toEqual({});
      expect((await getSettings(handle.db)).resultRetentionDays).toBe(180);
    }
    const [row] = await handle.db.select().from(schema.media);
    expect(row).toMatchObject({ variants: [], kind: "image", width: null });
    const [settings] = await handle.db.select().from(schema.siteSettings);
    expect(settings?.backupCron).toBeNull();
    expect(log.lines.filter((line) => line.includes("disclosure_wording"))).toHaveLength(1);
    expect(log.lines.join("\n")).toContain(
      "stored value: site_settings.result_retention_days is not a value cam-guide saves (Keep results for a whole number of days from 1 to 3,650 (ten years)); read as empty (the default) until it is saved again",
    );
    expect(log.lines.join("\n")).toContain(
      "stored value: media.variants is not valid JSON; read as [] until it is saved again",
    );
  });

  test("times and yes/no: a time no Date can hold reads as the default, a yes/no as its default", async () => {
    const handle = fresh();
    handle.sqlite.exec("UPDATE blog_posts SET publish_at = 'tomorrow', published = 7 WHERE id = 1");
    handle.sqlite.exec("UPDATE quiz_results SET created_at = 'long ago'");
    const [post] = await handle.db.select().from(schema.blogPosts).limit(1);
    expect(post).toMatchObject({ publishAt: null, published: false });
    const [result] = await handle.db.select().from(schema.quizResults);
    expect(result?.createdAt.toISOString()).toBe("1970-01-01T00:00:00.000Z");
  });

  test("text is read as text: one that breaks a form's rule as it is, one that is not text as text", async () => {
    const handle = fresh();
    handle.sqlite.exec(`UPDATE site_settings SET brand_name = '', income_figure = x'4869'`);
    const settings = await getSettings(handle.db);
    expect({ brand: settings.brandName, income: settings.incomeFigure }).toEqual({ brand: "", income: "Hi" });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toContain("site_settings.income_figure is not text; read as text");
  });

  test("a text rule checked on reads too: a cron schedule croner cannot read is none", async () => {
    const handle = fresh();
    handle.sqlite.exec("UPDATE site_settings SET backup_cron = '* * *'");
    const [row] = await handle.db.select({ cron: schema.siteSettings.backupCron }).from(schema.siteSettings);
    expect(row?.cron).toBeNull();
  });
});

describe("a backup's copy holds what the site runs on", () => {
  test("numbers, yes/no, times, enums and JSON that break their rule become their fallback; text stays", () => {
    const { sqlite } = fresh();
    sqlite.exec(`
      UPDATE site_settings SET backup_keep = -3, disclosure_wording = '{{', brand_name = '';
      UPDATE media SET variants = 'x', kind = 'script';
      UPDATE blog_posts SET published = 9 WHERE id = 1;`);
    expect(settleStoredValues(sqlite)).toEqual([
      "blog_posts.published",
      "media.kind",
      "media.variants",
      "site_settings.backup_keep",
      "site_settings.disclosure_wording",
    ]);
    expect(sqlite.query("SELECT backup_keep, disclosure_wording, brand_name FROM site_settings").get()).toEqual({
      backup_keep: null,
      disclosure_wording: null,
      brand_name: "",
    });
    expect(sqlite.query("SELECT variants, kind FROM media").get()).toEqual({ variants: "[]", kind: "image" });
    expect(sqlite.query("SELECT published FROM blog_posts WHERE id = 1").get()).toEqual({ published: 0 });
    // The text is still the admin's to fix when editing it; a restore keeps it as it is.
    expect(storedValueProblem(sqlite)).toBeNull();
  });

  test("a declared fallback where the default would mislead: a run whose status cannot be read failed", async () => {
    const handle = fresh();
    handle.sqlite.exec("INSERT INTO backup_runs (trigger, status, started_at) VALUES ('cron', 'weird', 0)");
    const [run] = await handle.db.select().from(schema.backupRuns);
    expect(run).toMatchObject({ trigger: "manual", status: "failed" });
    expect(settleStoredValues(handle.sqlite)).toEqual(["backup_runs.status", "backup_runs.trigger"]);
  });
});
