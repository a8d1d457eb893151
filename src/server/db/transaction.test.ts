import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { blogCategories } from "#server/features/blog/table.ts";
import { quizResults } from "#server/features/quiz/table.ts";
import { openMemoryDatabase } from "./client.ts";
import { inTransaction, TransactionOpenError } from "./transaction.ts";

const count = (sqlite: { query(sql: string): { get(): unknown } }, table: string) =>
  (sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("inTransaction", () => {
  test("commits every write and answers what the work returns", async () => {
    const { db, sqlite } = openMemoryDatabase();
    const rows = await inTransaction(db, async (tx) => {
      await tx.insert(blogCategories).values({ name: "Tips", slug: "tips" });
      return tx.insert(blogCategories).values({ name: "News", slug: "news" }).returning();
    });
    expect(rows.map((r) => r.slug)).toEqual(["news"]);
    expect(count(sqlite, "blog_categories")).toBe(2);
  });

  test("a failure halfway leaves nothing: the writes before it are rolled back", async () => {
    const { db, sqlite } = openMemoryDatabase();
    const attempt = inTransaction(db, async (tx) => {
      await tx.insert(blogCategories).values({ name: "Tips", slug: "tips" });
      await tx.insert(quizResults).values({ id: "r1", archetype: "Girl Next Door", answers: ["A"] });
      // The slug is unique: this statement fails after two succeeded.
      await tx.insert(blogCategories).values({ name: "Again", slug: "tips" });
    });
    await expect(attempt).rejects.toThrow(/UNIQUE/);
    expect(count(sqlite, "blog_categories")).toBe(0);
    expect(count(sqlite, "quiz_results")).toBe(0);
    expect(sqlite.inTransaction).toBe(false);
  });

  test("an error thrown by the work itself rolls back too", async () => {
    const { db, sqlite } = openMemoryDatabase();
    const attempt = inTransaction(db, async (tx) => {
      await tx.insert(blogCategories).values({ name: "Tips", slug: "tips" });
      throw new Error("changed my mind");
    });
    await expect(attempt).rejects.toThrow("changed my mind");
    expect(count(sqlite, "blog_categories")).toBe(0);
  });

  test("transactions started together run one after the other, each whole", async () => {
    const { db, sqlite } = openMemoryDatabase();
    const outcomes = await Promise.allSettled(
      ["a", "b", "c", "d"].map((slug, i) =>
        inTransaction(db, async (tx) => {
          await tx.insert(blogCategories).values({ name: slug, slug });
          await tx.insert(blogCategories).values({ name: `${slug}-2`, slug: `${slug}-2` });
          if (i === 2) throw new Error("third fails");
          const [row] = await tx.select().from(blogCategories).where(eq(blogCategories.slug, slug));
          return row!.name;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(
      (sqlite.query("SELECT slug FROM blog_categories ORDER BY slug").all() as { slug: string }[]).map((r) => r.slug),
    ).toEqual(["a", "a-2", "b", "b-2", "d", "d-2"]);
  });

  test("a statement another request runs meanwhile is not part of the transaction", async () => {
    const { db, sqlite } = openMemoryDatabase();
    const attempt = inTransaction(db, async (tx) => {
      await tx.insert(blogCategories).values({ name: "Tips", slug: "tips" });
      await tx.insert(blogCategories).values({ name: "Again", slug: "tips" });
    });
    // Queued while the transaction waits for its turn: it runs before or after, never inside.
    await db.insert(quizResults).values({ id: "r1", archetype: "Girl Next Door", answers: ["A"] });
    expect(count(sqlite, "quiz_results")).toBe(1);
    expect(count(sqlite, "blog_categories")).toBe(0);
    // The transaction itself failed on the duplicate slug and left nothing behind.
    await expect(attempt).rejects.toThrow();
    expect(count(sqlite, "blog_categories")).toBe(0);
  });

  test("a work that waits for something else keeps its isolation: another statement meanwhile is refused", async () => {
    const { db, sqlite } = openMemoryDatabase();
    let release!: () => void;
    const elsewhere = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const done = inTransaction(db, async (tx) => {
      await tx.insert(blogCategories).values({ name: "Tips", slug: "tips" });
      started();
      // Breaks the contract: waits for something that is not one of its statements.
      await elsewhere;
      await tx.insert(blogCategories).values({ name: "News", slug: "news" });
    });
    await inside;
    const intruder = db.insert(quizResults).values({ id: "r1", archetype: "Girl Next Door", answers: ["A"] });
    expect(
      await intruder.then(
        () => "ran",
        (error: unknown) => error,
      ),
    ).toBeInstanceOf(TransactionOpenError);
    release();
    await done;
    expect(count(sqlite, "blog_categories")).toBe(2);
    expect(count(sqlite, "quiz_results")).toBe(0);
    // Once it has ended, the outer db works again.
    await db.insert(quizResults).values({ id: "r1", archetype: "Girl Next Door", answers: ["A"] });
    expect(count(sqlite, "quiz_results")).toBe(1);
  });
});
