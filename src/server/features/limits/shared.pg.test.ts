// The shared budgets on PostgreSQL: the same answers as in memory (shared.test.ts, run here on
// PostgreSQL), and instances racing for the last write or the last guess: separate pools on one
// database, as separate processes would be. Run by `bun run test:postgres`.
import "./shared.test.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openPostgres, type PostgresHandle } from "#server/db/postgres.ts";
import { migratedDatabase, type TestPostgres } from "#tests/support/postgres.ts";
import { SharedDailyQuota, SharedLoginThrottle, SharedWriteLimiter, visitorEvents } from "./shared.ts";

let database: TestPostgres;
let instances: PostgresHandle[];

beforeAll(async () => {
  database = await migratedDatabase();
  instances = [1, 2, 3].map(() => openPostgres(database.url, { max: 4 }));
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await database.close();
});

/** `count` calls spread over the instances, all at once. */
function together<T>(count: number, call: (instance: PostgresHandle, i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => call(instances[i % instances.length]!, i)));
}

describe("three instances at the same moment", () => {
  test("a network's write budget: 60 writes at once through three instances, exactly its 10 taken", async () => {
    const limit = { count: 10, windowSeconds: 3600 };
    const limiters = new Map(instances.map((i) => [i, new SharedWriteLimiter(i.db, limit, "write-race")]));
    const waits = await together(60, (instance) => limiters.get(instance)!.take("203.0.113.40"));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(10);
    expect(waits.filter((wait) => wait > 0)).toHaveLength(50);
  });

  test("sign-in: 30 guesses at once through three instances, exactly the 5 allowed are checked", async () => {
    const throttles = new Map(instances.map((i) => [i, new SharedLoginThrottle(i.db, "sign-in-race")]));
    const answers = await together(30, (instance) => throttles.get(instance)!.begin("198.51.100.40"));
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(5);
    const refused = answers.filter((answer) => !answer.allowed);
    expect(refused).toHaveLength(25);
    for (const answer of refused) if (!answer.allowed) expect(answer.scope).toBe("client");
  });

  test("a daily allowance of 8 results: 40 at once from one network through three instances, exactly 8 taken", async () => {
    const share = { perClient: 8, daily: 10_000, floor: 1 };
    const quotas = new Map(instances.map((i) => [i, new SharedDailyQuota(i.db, share, "results:race")]));
    const answers = await together(40, (instance) => quotas.get(instance)!.take("192.0.2.40", "2026-03-10"));
    expect(answers.filter((answer) => answer === "ok")).toHaveLength(8);
    expect(answers.filter((answer) => answer === "client")).toHaveLength(32);
    // The refused ones took nothing: another network still has its whole allowance.
    const other = await together(8, (instance) => quotas.get(instance)!.take("192.0.2.41", "2026-03-10"));
    expect(other.every((answer) => answer === "ok")).toBe(true);
  });

  test("a network over its allowance sending 60 at once through three instances, ten times: every one refused, no deadlock, the counts as they were", async () => {
    const share = { perClient: 5, daily: 10_000, floor: 1 };
    // Pools as large as a server's, so that many statements are in flight at once.
    const wide = [1, 2, 3].map(() => openPostgres(database.url, { max: 20 }));
    const quotas = new Map(wide.map((i) => [i, new SharedDailyQuota(i.db, share, "results:over")]));
    for (let i = 0; i < 5; i++) expect(await quotas.get(wide[0]!)!.take("192.0.2.50", "2026-03-11")).toBe("ok");
    // Each refusal steps back: the step back once took the rows in another order than the
    // step forward, and two of them waited on each other (a deadlock, a 500, the step lost).
    // With that order put back, ten rounds met the deadlock in each of three runs (three
    // rounds, on a busy machine, could miss it).
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => quotas.get(wide[i % 3]!)!.take("192.0.2.50", "2026-03-11")),
      );
      expect(answers.filter((answer) => answer === "client")).toHaveLength(60);
    }
    const counts = await database.client<{ key: string; value: string }[]>`
      select key, value from shared_limits where scope = 'results:over:2026-03-11' order by key`;
    // The day's total and the network's own counts: the five taken, not one more.
    expect(counts.map((row) => row.key)).toContain("total");
    expect(counts.map((row) => [row.key, Number(row.value)])).toEqual(counts.map((row) => [row.key, 5]));
    expect(await quotas.get(wide[1]!)!.take("192.0.2.51", "2026-03-11")).toBe("ok");
    await Promise.all(wide.map((i) => i.close()));
  });

  test("a visitor's events counted through three instances add up to the last one", async () => {
    const totals = await together(30, (instance) => visitorEvents(instance.db, "2026-03-10", "c".repeat(32), 2));
    expect(totals.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => 2 * (i + 1)));
  });
});
