// PostgreSQL itself, on a real throwaway cluster (tests/support/postgres.ts): every kind of column
// round-trips as the code above the tables expects, migrations run once when instances start
// together, and inTransaction() is one transaction. Run by `bun run test:postgres`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { dialect } from "#server/db/dialect.ts";
import { applyPostgresMigrations, openPostgres, type PostgresHandle } from "#server/db/postgres.ts";
import { inTransaction } from "#server/db/transaction.ts";
import { backupRuns } from "#server/features/backups/table.ts";
import { blogCategories, blogPosts } from "#server/features/blog/table.ts";
import { media } from "#server/features/media/table.ts";
import { createQuizResult, getQuizResult } from "#server/features/quiz/service.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { resourcePath } from "#server/resources.ts";
import type { QuizResultInput } from "#shared/features/quiz/contract.ts";
import { emptyDatabase, migratedDatabase } from "#tests/support/postgres.ts";

let database: PostgresHandle & { url: string };
beforeAll(async () => {
  database = await migratedDatabase();
});
afterAll(() => database.close());

test("this process runs on PostgreSQL", () => {
  expect(dialect).toBe("postgresql");
});

describe("every kind of column round-trips", () => {
  test("JSON is stored as JSON (an object stays an object), booleans as booleans, the key as 1", async () => {
    const wording = { affiliateLabel: "Partner link", note: "We may earn from it." };
    await database.db.insert(siteSettings).values({
      brandName: "Cam Guide",
      platformAName: "A",
      platformAUrl: "https://a.example/",
      platformBName: "B",
      platformBUrl: "https://b.example/",
      publicOriginConfirmed: true,
      disclosureWording: wording,
    });
    const [row] = await database.db.select().from(siteSettings);
    expect(row?.id).toBe(1);
    expect(row?.disclosureWording).toEqual(wording);
    expect(row?.publicOriginConfirmed).toBe(true);
    expect(row?.bannerPlatform).toBe("a");
    const [stored] = await database.client`
      select jsonb_typeof(disclosure_wording) as json, pg_typeof(public_origin_confirmed)::text as flag
      from site_settings`;
    expect(stored).toEqual({ json: "object", flag: "boolean" });
  });

  test("a JSON array with its default, and integers past 32 bits, come back as they went in", async () => {
    const variants = [{ name: "a-480.webp", width: 480, height: 320, size: 12_345 }];
    const [made] = await database.db
      .insert(media)
      .values({ name: "a.png", mime: "image/png", kind: "image", size: 5_000_000_000, variants })
      .returning();
    expect(made?.size).toBe(5_000_000_000);
    expect(made?.variants).toEqual(variants);
    const [plain] = await database.db
      .insert(media)
      .values({ name: "b.png", mime: "image/png", kind: "image", size: 1 })
      .returning();
    expect(plain?.variants).toEqual([]);
    expect(plain?.alt).toBe("");
    const types = await database.client`select jsonb_typeof(variants) as json from media order by id`;
    expect(types.map((r) => r.json)).toEqual(["array", "array"]);
  });

  test("timestamps keep their milliseconds, both given and set by the database", async () => {
    const publishAt = new Date("2026-03-04T05:06:07.891Z");
    const before = Date.now();
    const [post] = await database.db
      .insert(blogPosts)
      .values({ title: "T", slug: "t", content: "<p>x</p>", published: true, publishAt })
      .returning();
    expect(post?.publishAt).toEqual(publishAt);
    expect(post?.published).toBe(true);
    expect(post?.createdAt).toBeInstanceOf(Date);
    // The database's clock and this one agree within a second on one machine.
    expect(Math.abs((post?.createdAt.getTime() ?? 0) - before)).toBeLessThan(1000);
    const [again] = await database.db.select().from(blogPosts).where(eq(blogPosts.slug, "t"));
    expect(again?.publishAt?.getTime()).toBe(publishAt.getTime());
    expect(again?.createdAt.getTime()).toBe(post?.createdAt.getTime());
  });

  test("a row's text keeps every character, and a NULL stays NULL", async () => {
    const title = "Zoë’s “first” week 🎥 — 東京\u200b";
    const [post] = await database.db
      .insert(blogPosts)
      .values({ title, slug: "unicode", content: "<p>x</p>" })
      .returning();
    expect(post?.title).toBe(title);
    expect(post?.excerpt).toBeNull();
    expect(post?.publishAt).toBeNull();
    expect(post?.published).toBe(false);
  });

  test("a finished backup of more than 2 GiB keeps its size", async () => {
    const [run] = await database.db
      .insert(backupRuns)
      .values({ trigger: "manual", status: "ok", size: 3 * 2 ** 30, finishedAt: new Date() })
      .returning();
    expect(run?.size).toBe(3 * 2 ** 30);
  });
});

describe("migrations", () => {
  test("instances starting together apply each migration once, one waiting for the other", async () => {
    const empty = await emptyDatabase("migrate");
    const handles = Array.from({ length: 6 }, () => openPostgres(empty.url, { max: 2 }));
    try {
      await Promise.all(handles.map((handle) => applyPostgresMigrations(handle)));
      const journal = readMigrationFiles({ migrationsFolder: resourcePath("drizzle-pg") });
      const [first] = handles;
      const applied = await first!.client`select hash from drizzle.__drizzle_migrations order by id`;
      expect(applied.map((r) => r.hash)).toEqual(journal.map((m) => m.hash));
      // And again later: nothing to do, nothing doubled.
      await applyPostgresMigrations(first!);
      const again = await first!.client`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(again[0]?.n).toBe(journal.length);
      expect(await first!.db.$count(blogPosts)).toBe(0);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await empty.drop();
    }
  });
});

describe("transactions", () => {
  test("a unit of writes that fails halfway leaves nothing behind", async () => {
    await database.db.insert(blogCategories).values({ name: "Kept", slug: "kept" });
    const failed = inTransaction(database.db, async (tx) => {
      await tx.insert(blogCategories).values({ name: "New", slug: "new" });
      await tx.insert(blogCategories).values({ name: "Again", slug: "kept" });
    });
    await expect(failed).rejects.toThrow();
    const slugs = await database.db.select({ slug: blogCategories.slug }).from(blogCategories);
    expect(slugs.map((r) => r.slug)).toEqual(["kept"]);
  });

  test("units run side by side each see their own writes and land whole", async () => {
    const units = Array.from({ length: 20 }, (_, i) =>
      inTransaction(database.db, async (tx) => {
        await tx.insert(blogCategories).values({ name: `Side ${i}`, slug: `side-${i}` });
        const [row] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(blogCategories)
          .where(eq(blogCategories.slug, `side-${i}`));
        return row?.n;
      }),
    );
    expect(await Promise.all(units)).toEqual(Array(20).fill(1));
    expect(await database.db.$count(blogCategories, sql`${blogCategories.slug} like 'side-%'`)).toBe(20);
  });
});

describe("a service on PostgreSQL", () => {
  test("a quiz result is written through the prepared insert and read back", async () => {
    const input: QuizResultInput = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
    const saved = await createQuizResult(database.db, input);
    const second = await createQuizResult(database.db, input);
    const read = await getQuizResult(database.db, saved.id);
    expect(read.answers).toEqual(input.answers);
    expect(read.archetype).toBe(input.archetype);
    expect((await getQuizResult(database.db, second.id)).id).toBe(second.id);
  });
});
