// Instances on one PostgreSQL database and their session secret (features/auth/instances.ts):
// separate pools here, as separate processes would be. tests/postgres-site.pg.test.ts starts a
// fourth executable with another JWT_SECRET beside three running ones. Run by `bun run test:postgres`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { openPostgres, type PostgresHandle } from "#server/db/postgres.ts";
import { memoryLogger } from "#server/logger.ts";
import { migratedDatabase, type TestPostgres } from "#tests/support/postgres.ts";
import { joinInstances, SecretMismatch, STALE_SECONDS, secretCheck, secretConflict } from "./instances.ts";
import { runningInstances } from "./table.ts";

let database: TestPostgres;
let a: PostgresHandle;
let b: PostgresHandle;

beforeAll(async () => {
  database = await migratedDatabase();
  [a, b] = [openPostgres(database.url, { max: 2 }), openPostgres(database.url, { max: 2 })];
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await database.close();
});

const ONE = "one-secret-of-at-least-thirty-two-characters";
const OTHER = "another-secret-of-at-least-thirty-two-chars";

describe("one JWT_SECRET for every running instance", () => {
  test("a second instance with the same secret joins; one with another is refused, saying what to do, and writes nothing", async () => {
    const first = await joinInstances(a.db, ONE, memoryLogger());
    const second = await joinInstances(b.db, ONE, memoryLogger());
    const refused = await joinInstances(b.db, OTHER, memoryLogger()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SecretMismatch);
    expect((refused as Error).message).toContain("JWT_SECRET differs");
    expect((refused as Error).message).toContain("stop every instance");
    // Neither secret is in the database: only its check, which the other secret does not match.
    const rows = await a.db.select().from(runningInstances);
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(ONE);
    expect(new Set(rows.map((r) => r.secretCheck))).toEqual(new Set([secretCheck(ONE)]));
    expect(secretCheck(OTHER)).not.toBe(secretCheck(ONE));
    await Promise.all([first.leave(), second.leave()]);
  });

  test("once every instance has stopped, the site starts with a new secret", async () => {
    const old = await joinInstances(a.db, ONE, memoryLogger());
    await old.leave();
    expect(await a.db.select().from(runningInstances)).toEqual([]);
    const renewed = await joinInstances(b.db, OTHER, memoryLogger());
    await renewed.leave();
  });

  test("an instance not heard from for a minute counts as stopped (killed, its machine gone); one heard from just now does not", async () => {
    const killed = await joinInstances(a.db, ONE, memoryLogger());
    const [row] = await a.db.select({ id: runningInstances.id }).from(runningInstances);
    await a.db
      .update(runningInstances)
      .set({ seenAt: sql`now() - make_interval(secs => ${STALE_SECONDS - 5})` })
      .where(eq(runningInstances.id, row!.id));
    expect(await joinInstances(b.db, OTHER, memoryLogger()).catch((error: unknown) => error)).toBeInstanceOf(
      SecretMismatch,
    );
    await a.db
      .update(runningInstances)
      .set({ seenAt: sql`now() - make_interval(secs => ${STALE_SECONDS + 5})` })
      .where(eq(runningInstances.id, row!.id));
    const next = await joinInstances(b.db, OTHER, memoryLogger());
    expect((await a.db.select().from(runningInstances)).map((r) => r.secretCheck)).toEqual([secretCheck(OTHER)]);
    await Promise.all([killed.leave(), next.leave()]);
  });

  test("an instance back after over a minute without the database, finding another secret started meanwhile, says so and is out of service", async () => {
    const logger = memoryLogger();
    const stalled = await joinInstances(a.db, ONE, logger);
    expect(secretConflict()).toBeNull();
    // Its row aged past the minute while it could not write; a start with another secret passes.
    await a.db.update(runningInstances).set({ seenAt: sql`now() - make_interval(secs => ${STALE_SECONDS + 5})` });
    const newcomer = await joinInstances(b.db, OTHER, memoryLogger());
    await stalled.beat();
    expect(secretConflict()).toContain("started with another JWT_SECRET");
    expect(logger.lines.join("\n")).toContain("this one is out of service");
    await Promise.all([stalled.leave(), newcomer.leave()]);
    expect(secretConflict()).toBeNull();
  });
});
