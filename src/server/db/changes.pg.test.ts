// The change feed (db/changes.ts, drizzle-pg/0001_change_feed.sql) on a real PostgreSQL: what
// tells every instance to empty its page cache. Run by `bun run test:postgres`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { type ChangeFeed, postgresChanges } from "#server/db/changes.ts";
import { inTransaction } from "#server/db/transaction.ts";
import { blogCategories } from "#server/features/blog/table.ts";
import { links } from "#server/features/links/table.ts";
import { media } from "#server/features/media/table.ts";
import { quizResults } from "#server/features/quiz/table.ts";
import { migratedDatabase, type TestPostgres } from "#tests/support/postgres.ts";

let database: TestPostgres;
let feed: ChangeFeed;
let heard: { table: string; version: number }[] = [];
let stop: () => Promise<void>;

beforeAll(async () => {
  database = await migratedDatabase();
  feed = postgresChanges(database);
  stop = await feed.listen(
    (change) => heard.push(change),
    () => {},
  );
});
afterAll(async () => {
  await stop();
  await database.close();
});

let markers = 0;

/** What the feed told after `work`, once a marker change made after it (in media) has arrived too. */
async function told(work: () => Promise<unknown>): Promise<string[]> {
  heard = [];
  await work();
  // Notifications arrive in commit order: the marker's arrival means the work's have too.
  await database.db
    .insert(media)
    .values({ name: `marker-${++markers}.png`, mime: "image/png", kind: "image", size: 1 });
  const deadline = Date.now() + 5000;
  while (!heard.some((c) => c.table === "media")) {
    if (Date.now() > deadline) throw new Error(`the marker never arrived: ${JSON.stringify(heard)}`);
    await Bun.sleep(10);
  }
  return heard.filter((c) => c.table !== "media").map((c) => c.table);
}

describe("the change feed", () => {
  test("a change is told once per table and transaction, with a version that grows", async () => {
    const before = await feed.version();
    const tables = await told(() =>
      inTransaction(database.db, async (tx) => {
        for (let i = 0; i < 20; i++) await tx.insert(blogCategories).values({ name: `C${i}`, slug: `c-${i}` });
      }),
    );
    expect(tables).toEqual(["blog_categories"]);
    expect(await feed.version()).toBeGreaterThan(before);
  });

  test("nothing is told for a statement that changed no row, nor for a transaction rolled back", async () => {
    const before = await feed.version();
    const tables = await told(async () => {
      await database.db.delete(blogCategories).where(eq(blogCategories.slug, "no-such-category"));
      await inTransaction(database.db, async (tx) => {
        await tx.insert(blogCategories).values({ name: "Gone", slug: "gone" });
        throw new Error("rolled back");
      }).catch(() => {});
    });
    expect(tables).toEqual([]);
    // The marker's change only.
    expect(await feed.version()).toBe(before + 1);
  });

  test("a link's health being recorded is not a change; its destination edited is", async () => {
    let link: { id: number } | undefined;
    const made = await told(async () => {
      [link] = await database.db.insert(links).values({ slug: "l", destination: "https://a.example/" }).returning();
    });
    expect(made).toEqual(["links"]);
    const health = await told(() =>
      database.db.update(links).set({ lastStatus: 200, lastCheckedAt: new Date() }).where(eq(links.id, link!.id)),
    );
    expect(health).toEqual([]);
    const edited = await told(() =>
      database.db.update(links).set({ destination: "https://b.example/" }).where(eq(links.id, link!.id)),
    );
    expect(edited).toEqual(["links"]);
  });

  test("saved results: a new one is not a change, one deleted is (the pages of results go)", async () => {
    const added = await told(() =>
      database.db.insert(quizResults).values({ id: "r1", archetype: "Girl Next Door", answers: [] }),
    );
    expect(added).toEqual([]);
    const deleted = await told(() => database.db.delete(quizResults).where(eq(quizResults.id, "r1")));
    expect(deleted).toEqual(["quiz_results"]);
  });
});
