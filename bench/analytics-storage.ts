// `bun bench/analytics-storage.ts`: how much a year of counting takes on disk. 5,000 visitors
// a day for 365 days go through the real counting functions (visitor hash with the day's
// salt, counts, funnel steps) into a fresh SQLite file, with the nightly roll-up after each
// day; then the file is vacuumed and measured. The mix of what visitors do is below.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, openDatabase } from "#server/db/client.ts";
import {
  type CountEvent,
  recordBot,
  recordMany,
  rollUp,
  type Visit,
  visitorHash,
} from "#server/features/analytics/service.ts";
import { BOT_REASONS, type FunnelStep, METRICS } from "#shared/features/analytics/constants.ts";

const VISITORS_PER_DAY = Number(process.env.VISITORS ?? 5000);
const DAYS = Number(process.env.DAYS ?? 365);
const BOTS_PER_DAY = 1500;

// A seeded random, so every run simulates the same year.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const chance = (p: number) => random() < p;
/** A skewed pick: the first items much more often (a few posts, referrers, offers are popular). */
const pick = <T>(list: readonly T[]) => list[Math.floor(list.length * random() ** 2)]!;

const archetypes = Array.from({ length: 10 }, (_, i) => `Archetype ${i + 1}`);
const tiers = ["starter", "rising", "solid", "strong", "top"];
const posts = Array.from({ length: 40 }, (_, i) => `a-blog-post-about-topic-${i + 1}`);
const lessons = Array.from({ length: 50 }, (_, i) => `${Math.floor(i / 5) + 1}/${(i % 5) + 1}`);
const offers = Array.from({ length: 10 }, (_, i) => String(i + 1));
const links = Array.from({ length: 8 }, (_, i) => `platform-${i + 1}`);
const placements = ["footer", "banner", "quiz-result", "tier-result", "resources", "learn", "offer", "starter-kit"];
const referrers = Array.from({ length: 30 }, (_, i) => `www.referring-site-${i + 1}.example.com`);
const utmSources = ["newsletter", "twitter", "reddit", "instagram", "tiktok", "partner", "forum", "youtube"];
const otherPages = ["about", "learn", "blog", "resources", "plan", "privacy", "terms", "resume"];

/** One visitor's day: what they did, as the server and the beacon would count it. */
function visitorDay(): { events: CountEvent[]; steps: FunnelStep[] } {
  const events: CountEvent[] = [];
  const steps: FunnelStep[] = [];
  const view = (kind: string) => events.push({ metric: METRICS.pageview, key: kind });
  const landing = random();
  if (landing < 0.65) {
    view("home");
    steps.push("home");
  } else if (landing < 0.9) {
    const post = pick(posts);
    view("blog-post");
    events.push({ metric: METRICS.postView, key: post });
  } else {
    view("module");
    events.push({ metric: METRICS.moduleView, key: String(1 + Math.floor(random() * 10)) });
  }
  if (chance(0.2)) events.push({ metric: METRICS.referrer, key: pick(referrers) });
  if (chance(0.08)) events.push({ metric: METRICS.utmSource, key: pick(utmSources) });
  for (let i = Math.floor(random() * 3); i > 0; i--) view(pick(otherPages));
  if (chance(0.15)) {
    view("blog-post");
    events.push({ metric: METRICS.postView, key: pick(posts) });
  }
  if (chance(0.35)) {
    view("quiz");
    events.push({ metric: METRICS.quizStart, key: "" });
    steps.push("quiz-start");
    if (chance(0.7)) {
      events.push({ metric: METRICS.quizFinish, key: pick(archetypes) });
      view("quiz-result");
      events.push({ metric: METRICS.resultView, key: "" });
      steps.push("result");
      if (chance(0.5)) {
        view("earnings");
        events.push({ metric: METRICS.calculatorFinish, key: pick(tiers) });
        steps.push("calculator");
        view("tier-result");
        if (chance(0.6)) {
          view("starter-kit");
          events.push({ metric: METRICS.kitView, key: "" });
          steps.push("starter-kit");
        }
      }
    }
  }
  if (chance(0.15)) {
    for (let i = 1 + Math.floor(random() * 3); i > 0; i--) {
      const lesson = pick(lessons);
      view("module");
      events.push({ metric: METRICS.moduleView, key: lesson.split("/")[0]! });
      events.push({ metric: METRICS.lessonRead, key: lesson });
      events.push({ metric: METRICS.offerView, key: pick(offers) });
    }
    steps.push("lesson");
    if (chance(0.3))
      events.push({
        metric: METRICS.moduleQuiz,
        key: `${1 + Math.floor(random() * 10)}/${chance(0.7) ? "passed" : "failed"}`,
      });
  }
  if (chance(0.08)) {
    events.push({ metric: METRICS.click, key: `${pick(links)}/${pick(placements)}` });
    steps.push("click");
  }
  return { events, steps };
}

const dir = mkdtempSync(join(tmpdir(), "cam-guide-analytics-"));
const file = join(dir, "app.db");
const handle = openDatabase(file);
applyMigrations(handle);
const { db, sqlite } = handle;
sqlite.exec("VACUUM");
sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
const emptySize = statSync(file).size;

/** The bytes a table and its index take (dbstat), or null where SQLite was built without it. */
function dbstatBytes(table: string): number | null {
  try {
    const row = sqlite
      .query("SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (?, ?)")
      .get(table, `sqlite_autoindex_${table}_1`) as { bytes: number };
    return row.bytes;
  } catch {
    return null;
  }
}
let rawDayBytes: number | null = null;

const start = Date.parse("2025-01-01T00:00:00Z");
const began = performance.now();
let events = 0;
for (let day = 0; day < DAYS; day++) {
  const noon = new Date(start + day * 86_400_000 + 12 * 3_600_000);
  const visits: Visit[] = [];
  for (let v = 0; v < VISITORS_PER_DAY; v++) {
    const address = `10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}`;
    const visitor = await visitorHash(db, address, `Mozilla/5.0 simulated ${v % 50}`, noon);
    const { events: list, steps } = visitorDay();
    events += list.length;
    visits.push({ visitor, events: list, steps });
  }
  // A day in batches of a thousand visitors: one transaction each.
  for (let i = 0; i < visits.length; i += 1000) await recordMany(db, visits.slice(i, i + 1000), noon);
  for (let b = 0; b < BOTS_PER_DAY / 100; b++) await recordBot(db, pick(BOT_REASONS), noon);
  if (day === DAYS - 1) rawDayBytes = dbstatBytes("analytics_visitors");
  // The night after: yesterday's raw rows become counts, old salts go.
  await rollUp(db, new Date(start + (day + 1) * 86_400_000 + 60_000));
}
const seconds = (performance.now() - began) / 1000;

const rows = (table: string) => (sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const dailyRows = rows("analytics_daily");
const rawRows = rows("analytics_visitors");
const saltRows = rows("analytics_salts");
sqlite.exec("VACUUM");
sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
let tableBytes: string;
try {
  const sizes = sqlite
    .query("SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE '%analytics%' GROUP BY name ORDER BY name")
    .all() as { name: string; bytes: number }[];
  const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
  tableBytes = `${sizes.map((s) => `${s.name} ${(s.bytes / 1024).toFixed(0)} KiB`).join(", ")}; total ${(total / 1024 / 1024).toFixed(2)} MiB (dbstat)`;
} catch {
  tableBytes = `${((statSync(file).size - emptySize) / 1024 / 1024).toFixed(2)} MiB (file size minus the empty database's)`;
}
const fileSize = statSync(file).size;
handle.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  `${DAYS} days at ${VISITORS_PER_DAY.toLocaleString("en")} visitors a day (${events.toLocaleString("en")} events), simulated in ${seconds.toFixed(0)} s\n`,
);
console.log("| | |");
console.log("| --- | --- |");
console.log(`| analytics_daily rows | ${dailyRows.toLocaleString("en")} (${(dailyRows / DAYS).toFixed(0)} a day) |`);
console.log(`| analytics_visitors rows left (today's) | ${rawRows} |`);
console.log(`| analytics_salts rows left | ${saltRows} |`);
console.log(
  `| database file after VACUUM | ${(fileSize / 1024 / 1024).toFixed(2)} MiB (empty: ${(emptySize / 1024).toFixed(0)} KiB) |`,
);
console.log(`| analytics tables | ${tableBytes} |`);
console.log(
  `| one day's raw visitor rows, before the roll-up | ${rawDayBytes === null ? "?" : `${(rawDayBytes / 1024).toFixed(0)} KiB`} (${VISITORS_PER_DAY.toLocaleString("en")} rows) |`,
);
