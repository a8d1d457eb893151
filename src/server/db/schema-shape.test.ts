import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resourcePath } from "#server/resources.ts";
import { rebuildTable, replaced, withClause } from "#tests/support/schema-variants.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { openDatabase, openMemoryDatabase } from "./client.ts";
import { replacementDatabaseProblem } from "./snapshot.ts";

// A database about to replace the live one must have exactly the shape this release's
// migrations make. Each variant is a real file, checked as a restore checks it.

type Change = string | ((db: Database) => void);

/** This release's database as a file, with `change` (SQL, or a function of the connection) made to it. */
function variant(change: Change): string {
  const file = join(scratchDir("shape"), "app.db");
  writeFileSync(file, openMemoryDatabase().sqlite.serialize());
  const db = new Database(file);
  db.run("PRAGMA foreign_keys = OFF");
  if (typeof change === "string") db.exec(change);
  else change(db);
  db.close();
  return file;
}

const edit = (table: string, from: string, to: string) => (db: Database) => rebuildTable(db, table, replaced(from, to));
const appendToTable = (table: string, clause: string) => (db: Database) => rebuildTable(db, table, withClause(clause));

describe("the whole shape is compared", () => {
  test.each([
    [
      "a CHECK constraint added to quiz_results",
      appendToTable("quiz_results", "CONSTRAINT quiz_guard CHECK (created_at < 0)"),
      "table quiz_results whose definition differs",
    ],
    [
      "a renamed constraint",
      edit("site_settings", '"site_settings_single_row"', '"single_row"'),
      "table site_settings whose definition differs",
    ],
    [
      "an index redefined on other columns",
      "DROP INDEX blog_posts_published_created_idx; CREATE INDEX blog_posts_published_created_idx ON blog_posts (created_at)",
      "index blog_posts_published_created_idx defined differently from cam-guide's (on created_at",
    ],
    [
      "an index made partial",
      "DROP INDEX blog_posts_published_created_idx; CREATE INDEX blog_posts_published_created_idx ON blog_posts (published, created_at) WHERE published = 1",
      "index blog_posts_published_created_idx defined differently",
    ],
    [
      "a unique index made plain",
      "DROP INDEX links_slug_unique; CREATE INDEX links_slug_unique ON links (slug)",
      "index links_slug_unique defined differently",
    ],
    [
      "an index on an expression",
      "DROP INDEX media_name_unique; CREATE UNIQUE INDEX media_name_unique ON media (lower(name))",
      "media_name_unique",
    ],
    [
      "an extra index",
      "CREATE UNIQUE INDEX quiz_one_per_archetype ON quiz_results (archetype)",
      "index cam-guide never creates (quiz_one_per_archetype)",
    ],
    [
      "a dropped index",
      "DROP INDEX blog_posts_published_created_idx",
      "missing cam-guide's index blog_posts_published_created_idx",
    ],
    [
      "a changed default",
      edit("quiz_results", "DEFAULT (CAST(unixepoch('subsec') * 1000 AS INTEGER))", "DEFAULT 0"),
      "column created_at has the default 0",
    ],
    [
      "NOT NULL dropped",
      edit("quiz_results", "`archetype` text NOT NULL", "`archetype` text"),
      "column archetype allows NULL",
    ],
    [
      "NOT NULL added",
      edit("earnings_results", "`quiz_result_id` text,", "`quiz_result_id` text NOT NULL,"),
      "column quiz_result_id refuses NULL",
    ],
    [
      "a changed column type",
      edit("quiz_results", "`answers` text NOT NULL", "`answers` blob NOT NULL"),
      "column answers is BLOB, not TEXT",
    ],
    [
      "a changed foreign key",
      edit("earnings_results", "ON DELETE set null", "ON DELETE cascade"),
      "table earnings_results whose foreign keys differ",
    ],
    [
      "an added trigger",
      "CREATE TRIGGER quiz_refused BEFORE INSERT ON quiz_results BEGIN SELECT RAISE(ABORT, 'no'); END",
      "trigger cam-guide never creates (quiz_refused)",
    ],
    ["an added view", "CREATE VIEW recent AS SELECT id FROM quiz_results", "view cam-guide never creates (recent)"],
    [
      "an extra column",
      "ALTER TABLE quiz_results ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'",
      "column extra cam-guide never creates",
    ],
    ["a dropped column", "ALTER TABLE blog_posts DROP COLUMN meta_keywords", "column meta_keywords is missing"],
    [
      "columns in another order",
      edit(
        "quiz_results",
        "`archetype` text NOT NULL,\n\t`answers` text NOT NULL",
        "`answers` text NOT NULL,\n\t`archetype` text NOT NULL",
      ),
      "columns are in another order",
    ],
    ["a dropped table", "DROP TABLE media", "missing cam-guide tables (media)"],
  ] as [string, Change, string][])("%s: refused, naming the object", async (_, sql, expected) => {
    expect(await replacementDatabaseProblem(variant(sql))).toContain(expected);
  });

  test("this release's own database passes", async () => {
    expect(await replacementDatabaseProblem(variant("SELECT 1"))).toBeNull();
  });
});

describe("an older release's database", () => {
  test.each([1, 2, 3, 4, 5])("made by the first %i migrations is brought up to date and passes", async (count) => {
    const folder = join(scratchDir("older-migrations"), "drizzle");
    mkdirSync(join(folder, "meta"), { recursive: true });
    const journal = JSON.parse(readFileSync(resourcePath("drizzle/meta/_journal.json"), "utf8"));
    journal.entries = journal.entries.slice(0, count);
    writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify(journal));
    for (const { tag } of journal.entries) copyFileSync(resourcePath(`drizzle/${tag}.sql`), join(folder, `${tag}.sql`));
    const file = join(scratchDir("older"), "app.db");
    const handle = openDatabase(file);
    const { migrate } = await import("drizzle-orm/bun-sqlite/migrator");
    migrate(handle.drizzle, { migrationsFolder: folder });
    handle.close();
    expect(await replacementDatabaseProblem(file)).toBeNull();
  });
});
