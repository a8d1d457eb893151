// `bun bench/growth-data.ts <DATA_DIR>`: a site grown old, for the growth benchmark. The
// compiled executable creates and seeds DATA_DIR (`cam-guide seed`, as an owner's first start
// would), then this writes through the project's own tables and Markdown renderer:
// - POSTS (default 10,000) published posts of about 1,000 words each, in Markdown with their
//   clean HTML, an excerpt, a category (the seeded ones and a dozen more) and a cover from the
//   seeded images, dated over the last five years;
// - QUIZ (2,000,000) quiz results and EARNINGS (1,000,000) estimates, a third of them linked to
//   a quiz result, saved over the retention period (so the first start keeps them);
// - DAYS (365) days of analytics counts: visitors, page views, funnel steps and the views of
//   about 300 posts a day.
// The same seed gives the same site: each figure can be measured again. A site that already
// holds grown posts is refused (run it on a fresh folder or database). About a minute per
// million rows here. With DATABASE_URL (and JWT_SECRET) set, the site is that PostgreSQL
// database instead, DATA_DIR holding only its files: the same rows, through the same tables.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { like, sql } from "drizzle-orm";
import archetypes from "#content/quiz/archetypes.json" with { type: "json" };
import { openDatabase } from "#server/db/client.ts";
import { openPostgres } from "#server/db/postgres.ts";
import type { Db } from "#server/db/types.ts";
import { analyticsDaily } from "#server/features/analytics/table.ts";
import { plainText } from "#server/features/blog/search.ts";
import { blogCategories, blogPosts } from "#server/features/blog/table.ts";
import { earningsResults } from "#server/features/earnings/table.ts";
import { quizResults } from "#server/features/quiz/table.ts";
import { newId } from "#server/lib/ids.ts";
import { renderMarkdown } from "#server/lib/markdown.ts";
import { computeTier } from "#shared/features/earnings/tiers.ts";
import { DEFAULT_RESULT_RETENTION_DAYS } from "#shared/features/settings/result-retention.ts";
import { binary, ensureBinary } from "./lib.ts";

const count = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number (got ${process.env[name]})`);
  return value;
};
const POSTS = count("POSTS", 10_000);
const QUIZ = count("QUIZ", 2_000_000);
const EARNINGS = count("EARNINGS", 1_000_000);
const DAYS = count("DAYS", 365);
const DAY = 24 * 60 * 60 * 1000;
/** Marks the posts written here: `grown-<n>-…`. */
const SLUG_PREFIX = "grown-";

const dataDir = process.argv[2];
if (!dataDir) {
  console.error("Usage: bun bench/growth-data.ts <DATA_DIR>   (POSTS, QUIZ, EARNINGS, DAYS change the sizes)");
  process.exit(1);
}

// A seeded random: the same site every run.
let state = 20_261_128;
const random = () => {
  state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
  return state / 2 ** 31;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const WORDS = (
  "camera light room chat viewers schedule regulars tips goal show stream boundaries privacy " +
  "platform payout taxes records income expenses budget microphone background lamp angle " +
  "conversation welcome regular theme costume music game question answer break routine week " +
  "month evening morning profile bio photo tag category rules moderator block report safety " +
  "name location account password device backup plan practice confidence energy mood rest " +
  "audience fan club message private public goal-board menu price token minute hour notes"
).split(" ");
const TOPICS = [
  "lighting",
  "first week",
  "stage name",
  "taxes",
  "slow nights",
  "regulars",
  "privacy",
  "payouts",
  "scheduling",
  "sound",
  "boundaries",
  "burnout",
  "profiles",
  "tip menus",
  "themes",
  "moderators",
];
const EXTRA_CATEGORIES = [
  "Equipment",
  "Money",
  "Safety",
  "Mindset",
  "Marketing",
  "Platforms",
  "Routines",
  "Community",
  "Legal basics",
  "Health",
  "Streaming tech",
  "Stories",
];
const COVERS = [
  "choosing-a-stage-name",
  "how-to-start-camming-safely",
  "keeping-chat-lively-on-slow-nights",
  "lighting-on-a-budget",
  "platform-reviews",
  "questions-to-ask-before-signing-up",
  "taxes-for-cam-models",
  "your-first-week-on-camera",
].map((name) => `/seed/blog/${name}.jpg`);

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
function sentence(): string {
  const length = 8 + Math.floor(random() * 14);
  return `${capital(Array.from({ length }, () => pick(WORDS)).join(" "))}.`;
}
const paragraph = () => Array.from({ length: 3 + Math.floor(random() * 4) }, sentence).join(" ");

/** About 1,000 words of Markdown: sections with headings, paragraphs, a list, a link to another post. */
function body(n: number): string {
  const parts: string[] = [paragraph(), paragraph()];
  for (let section = 1; section <= 4; section++) {
    parts.push(`## ${capital(pick(TOPICS))}: part ${section}`);
    parts.push(paragraph(), paragraph());
    if (section === 2) parts.push(Array.from({ length: 4 }, () => `- ${sentence()}`).join("\n"));
    if (section === 3 && n > 1)
      parts.push(`Read also [an earlier post](/blog/${slugOf(Math.floor(random() * (n - 1)) + 1)}).`);
  }
  parts.push(paragraph());
  return parts.join("\n\n");
}
const slugOf = (n: number) => `${SLUG_PREFIX}${n}-${TOPICS[n % TOPICS.length]!.replaceAll(" ", "-")}`;

// ---------------------------------------------------------------------------------------------

const dir = resolve(dataDir);
const file = join(dir, "app.db");
const postgresUrl = process.env.DATABASE_URL;
if (postgresUrl || !existsSync(file)) {
  ensureBinary();
  const seeded = Bun.spawnSync([binary, "seed"], {
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: dir,
      ADMIN_PASSWORD: "growth-bench-password",
      ...(postgresUrl ? { DATABASE_URL: postgresUrl, JWT_SECRET: process.env.JWT_SECRET ?? "" } : {}),
    },
    stderr: "inherit",
  });
  if (seeded.exitCode !== 0) process.exit(1);
}
const sqliteHandle = postgresUrl ? null : openDatabase(file);
const postgresHandle = postgresUrl ? openPostgres(postgresUrl) : null;
const db: Db = sqliteHandle?.db ?? postgresHandle!.db;
const where = postgresUrl ? "the database" : file;
const grown = await db.$count(blogPosts, like(blogPosts.slug, `${SLUG_PREFIX}%`));
if (grown > 0) {
  console.error(`${where} already holds ${grown} grown posts: run this on a fresh folder or database.`);
  process.exit(1);
}

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const now = Date.now();

// Categories: the seeded ones and a dozen more.
await db
  .insert(blogCategories)
  .values(EXTRA_CATEGORIES.map((name) => ({ name, slug: name.toLowerCase().replaceAll(" ", "-") })))
  .onConflictDoNothing();
const categories = (await db.select({ slug: blogCategories.slug }).from(blogCategories)).map((c) => c.slug);

/** `total` rows made by `row(i)`, inserted `size` at a time, each batch one statement. */
async function inBatches<T>(
  label: string,
  total: number,
  size: number,
  row: (i: number) => T,
  insert: (rows: T[]) => Promise<unknown>,
) {
  for (let from = 0; from < total; from += size)
    await insert(Array.from({ length: Math.min(size, total - from) }, (_, k) => row(from + k)));
  console.log(`${label}: ${total.toLocaleString("en")} (${elapsed()})`);
}

const FIVE_YEARS = 5 * 365 * DAY;
await inBatches(
  "posts",
  POSTS,
  200,
  (i) => {
    const n = i + 1;
    const markdown = body(n);
    const content = renderMarkdown(markdown);
    const topic = TOPICS[n % TOPICS.length]!;
    const created = new Date(now - FIVE_YEARS + Math.floor((FIVE_YEARS * n) / (POSTS + 1)));
    return {
      title: `${capital(topic)}, lesson ${n}: ${sentence().slice(0, 48).replace(/\.$/, "")}`,
      slug: slugOf(n),
      excerpt: `${sentence()} ${sentence()}`,
      category: pick(categories),
      coverImage: pick(COVERS),
      // As the admin's save writes it: the words for the search index derived from the HTML.
      content,
      searchText: plainText(content),
      contentMarkdown: markdown,
      metaDescription: sentence(),
      published: true,
      createdAt: created,
      updatedAt: created,
    };
  },
  (rows) => db.insert(blogPosts).values(rows),
);

// Results: spread over the retention period, the newest a minute ago.
const KEPT = (DEFAULT_RESULT_RETENTION_DAYS - 1) * DAY;
const savedAt = (i: number, total: number) => new Date(now - 60_000 - Math.floor((KEPT * (total - i)) / total));
const LETTERS = ["A", "B", "C", "D"];
const archetypeNames = archetypes.map((a: { name: string }) => a.name);
const quizIds: string[] = [];
await inBatches(
  "quiz results",
  QUIZ,
  2_000,
  (i) => {
    const id = newId();
    if (i % 3 === 0 && quizIds.length < EARNINGS) quizIds.push(id);
    return {
      id,
      archetype: pick(archetypeNames),
      answers: Array.from({ length: 15 }, () => pick(LETTERS)),
      createdAt: savedAt(i, QUIZ),
    };
  },
  (rows) => db.insert(quizResults).values(rows),
);
await inBatches(
  "estimates",
  EARNINGS,
  2_000,
  (i) => {
    const answers = Array.from({ length: 15 }, () => 1 + Math.floor(random() * 3));
    const tier = computeTier(answers);
    return {
      id: newId(),
      quizResultId: i % 3 === 0 ? (quizIds[i / 3] ?? null) : null,
      tier: tier.tier,
      estimatedEarnings: tier.estimatedEarnings,
      score: tier.score,
      answers,
      createdAt: savedAt(i, EARNINGS),
    };
  },
  (rows) => db.insert(earningsResults).values(rows),
);

// Analytics: the day's totals, the page kinds, the funnel and the views of a few hundred posts.
const PAGE_KINDS = ["home", "quiz", "result", "earnings", "kit", "learn", "lesson", "blog", "post", "plan"];
const FUNNEL = ["quiz_start", "quiz_finish", "calculator", "kit", "course"];
await inBatches(
  "analytics days",
  DAYS,
  1,
  (d) => {
    const day = new Date(now - (d + 1) * DAY).toISOString().slice(0, 10);
    const visitors = 2_000 + Math.floor(random() * 6_000);
    const rows = [{ day, metric: "visitors", key: "", count: visitors }];
    for (const key of PAGE_KINDS) rows.push({ day, metric: "pageview", key, count: Math.floor(random() * visitors) });
    for (const key of FUNNEL) rows.push({ day, metric: "funnel", key, count: Math.floor(random() * visitors * 0.4) });
    const views = new Set<number>();
    while (views.size < Math.min(300, POSTS)) views.add(1 + Math.floor(random() ** 2 * POSTS));
    for (const n of views)
      rows.push({ day, metric: "post_view", key: slugOf(n), count: 1 + Math.floor(random() * 200) });
    return rows;
  },
  async (days) => {
    for (const rows of days)
      for (let k = 0; k < rows.length; k += 500) await db.insert(analyticsDaily).values(rows.slice(k, k + 500));
  },
);

if (sqliteHandle) {
  sqliteHandle.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sqliteHandle.sqlite.run("ANALYZE");
  sqliteHandle.close();
} else {
  // Vacuumed as well: autovacuum would otherwise walk the new rows while the benchmark measures.
  await postgresHandle!.drizzle.execute(sql`VACUUM (ANALYZE)`);
  await postgresHandle!.close();
}
console.log(`${where}: grown in ${elapsed()}`);
