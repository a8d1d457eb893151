import { describe, expect, test } from "bun:test";
import { join, relative } from "node:path";
import { Glob } from "bun";

// Outside src/server/db/, server code reaches the database only through drizzle's awaited
// query builder and the functions in src/server/db/, so a second database needs no change
// there. This scan keeps that true: it fails on a synchronous drizzle call (bun:sqlite only)
// and on SQL or APIs that only SQLite has.

const RULES: [RegExp, string][] = [
  [/\.(get|all|run|values)\(\s*\)/, "a synchronous drizzle call (.get/.all/.run/.values): await the query instead"],
  [/\.(get|all|run)\(\s*\{/, "a prepared statement run synchronously: await statement.execute(values)"],
  [/\.transaction\(/, "drizzle's transaction (not atomic with an async callback on bun:sqlite): use inTransaction()"],
  [
    /["'](bun:sqlite|drizzle-orm\/sqlite-core|drizzle-orm\/bun-sqlite)["']/,
    "a SQLite-only module: use #server/db/columns.ts or a function in src/server/db/",
  ],
  [/\$client\b|\.sqlite\b/, "the SQLite connection itself: put what needs it behind a function in src/server/db/"],
  [
    /\b(PRAGMA|VACUUM|unixepoch|strftime|julianday|total_changes|last_insert_rowid|sqlite_master|sqlite_schema|AUTOINCREMENT)\b/i,
    "SQLite-only SQL",
  ],
  [/\bINSERT\s+OR\s+(IGNORE|REPLACE)\b|\bdatetime\(/i, "SQLite-only SQL"],
];

/** The rule each line breaks, ignoring whole-line comments (they may explain a rule). */
function violations(source: string): { line: number; rule: string }[] {
  const found: { line: number; rule: string }[] = [];
  source.split("\n").forEach((text, i) => {
    if (/^\s*(\/\/|\/\*|\*)/.test(text)) return;
    for (const [pattern, rule] of RULES) if (pattern.test(text)) found.push({ line: i + 1, rule });
  });
  return found;
}

const serverDir = join(import.meta.dir, "..");
const sources = [...new Glob("**/*.{ts,tsx}").scanSync(serverDir)]
  .filter((file) => !file.startsWith("db/") && !/\.test\.tsx?$/.test(file))
  .sort();

describe("data access outside src/server/db/", () => {
  test("the scan sees the services and routes", () => {
    expect(sources).toContain("features/quiz/service.ts");
    expect(sources).toContain("features/blog/admin-routes.ts");
    expect(sources.some((file) => file.startsWith("db/"))).toBe(false);
  });

  test.each(sources)("src/server/%s uses only the portable data layer", async (file) => {
    const source = await Bun.file(join(serverDir, file)).text();
    expect(
      violations(source).map(({ line, rule }) => `${relative(process.cwd(), join(serverDir, file))}:${line}: ${rule}`),
    ).toEqual([]);
  });

  test.each([
    "const row = db.select().from(t).get();",
    "db.insert(t).values(v).run();",
    "const rows = db.select().from(t).all().map(f);",
    "insert.run({ id, archetype });",
    "return db.transaction((tx) => tx.insert(t).values(v));",
    'import { Database } from "bun:sqlite";',
    'import { integer } from "drizzle-orm/sqlite-core";',
    'handle.sqlite.query("SELECT 1");',
    "db.$client.exec(x);",
    "await db.run(sql`PRAGMA foreign_keys = ON`);",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text, not a template
    "await db.run(sql`vacuum into ${file}`);",
    "createdAt: sql`(unixepoch('subsec'))`,",
    "db.run(sql`INSERT OR IGNORE INTO t VALUES (1)`);",
  ])("the scan catches %s", (line) => {
    expect(violations(line)).not.toEqual([]);
  });

  test.each([
    "const [row] = await db.select().from(t).where(eq(t.id, id)).limit(1);",
    "await db.insert(t).values({ id }).returning();",
    "await insert.execute({ id, archetype });",
    'const origin = request.headers.get("origin");',
    "if (Object.values(report).some((n) => n > 0)) log();",
    "const [a, b] = await Promise.all([one(), two()]);",
    '.get("/api/settings", () => getSettings(db))',
    '.all("/api/*", () => notFound())',
    "return inTransaction(db, async (tx) => work(tx));",
    "// VACUUM INTO copies the database while it is written to.",
  ])("the scan lets %s through", (line) => {
    expect(violations(line)).toEqual([]);
  });
});
