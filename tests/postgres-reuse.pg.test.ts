// The test harness's reuse of PostgreSQL databases (tests/support/postgres.ts): a database an API
// scenario released is given to the next one only when it holds exactly what a fresh copy of its
// template holds. Run by `bun run test:postgres`.
import { afterAll, describe, expect, test } from "bun:test";
import { seedDatabase } from "#server/db/seed.ts";
import { postgresTestDatabase } from "#tests/support/database.ts";
import { closeTestDatabases, migratedDatabase, type TestPostgres } from "#tests/support/postgres.ts";
import { contents } from "#tests/support/scenario.ts";

afterAll(() => closeTestDatabases());

/** Every table's rows and every sequence's next value, as a fresh copy would show them. */
async function state(database: TestPostgres) {
  const testDb = postgresTestDatabase(database);
  const rows = await contents(testDb, await testDb.tables());
  const sequences = await database.client<{ name: string; last: string | null }[]>`
    select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public'
    order by sequencename`;
  return { rows, sequences: [...sequences] };
}

describe.each([
  ["the migrated template", "migrated", undefined],
  ["the seeded template", "seeded", seedDatabase],
] as const)("a database of %s, released", (_name, kind, fill) => {
  test("after rows were added, changed and deleted, the next test gets it back as a fresh copy", async () => {
    const fresh = await migratedDatabase(kind, fill);
    const expected = await state(fresh);
    await fresh.close();

    const used = await migratedDatabase(kind, fill, { reuse: true });
    await used.client`insert into media (name, mime, kind, size) values ('a.png', 'image/png', 'image', 1)`;
    await used.client`insert into links (slug, destination) values ('x-link', 'https://example.com/x')`;
    await used.client`update site_settings set brand_name = 'Changed'`;
    await used.client`delete from blog_posts`;
    expect(await state(used)).not.toEqual(expected);
    await used.release();

    const next = await migratedDatabase(kind, fill, { reuse: true });
    expect(next.url).toBe(used.url);
    expect(await state(next)).toEqual(expected);
    await next.release();
  });

  test("after its schema changed, it is dropped and the next test gets a new copy", async () => {
    const first = await migratedDatabase(kind, fill, { reuse: true });
    await first.client`create index media_size_idx on media (size)`;
    await first.release();
    const next = await migratedDatabase(kind, fill, { reuse: true });
    expect(next.url).not.toBe(first.url);
    expect(await next.client`select 1 from pg_indexes where indexname = 'media_size_idx'`).toHaveLength(0);
    await next.release();
  });

  test("closed by the test, it is dropped, never given again", async () => {
    const first = await migratedDatabase(kind, fill, { reuse: true });
    await first.close();
    await first.release();
    const next = await migratedDatabase(kind, fill, { reuse: true });
    expect(next.url).not.toBe(first.url);
    await next.release();
  });
});
