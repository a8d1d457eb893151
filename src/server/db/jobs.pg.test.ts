// Jobs on a timer run on one instance at a time (db/jobs.ts): instances are separate pools on one
// PostgreSQL database here, as separate processes would be. Run by `bun run test:postgres`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { alone } from "#server/db/jobs.ts";
import { openPostgres, type PostgresHandle } from "#server/db/postgres.ts";
import { scheduleRollUp } from "#server/features/analytics/service.ts";
import { analyticsDaily, analyticsVisitors } from "#server/features/analytics/table.ts";
import { METRICS } from "#shared/features/analytics/constants.ts";
import { migratedDatabase, type TestPostgres } from "#tests/support/postgres.ts";

let database: TestPostgres;
let instances: PostgresHandle[];

beforeAll(async () => {
  database = await migratedDatabase();
  instances = [1, 2, 3].map(() => openPostgres(database.url, { max: 3 }));
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await database.close();
});

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("a job runs on one instance at a time", () => {
  test("while one instance runs a job, another's turn is skipped at once; afterwards it runs", async () => {
    const [a, b] = instances as [PostgresHandle, PostgresHandle];
    const held = gate();
    const started = gate();
    const first = alone(a.db, "link-checks", async () => {
      started.open();
      await held.opened;
      return "a ran";
    });
    await started.opened;
    expect(await alone(b.db, "link-checks", async () => "b ran")).toBeNull();
    // Another job is not held up by this one.
    expect(await alone(b.db, "result-retention", async () => "b ran another")).toBe("b ran another");
    held.open();
    expect(await first).toBe("a ran");
    expect(await alone(b.db, "link-checks", async () => "b ran")).toBe("b ran");
  });

  test("a job that fails lets the next turn run", async () => {
    const [a, b] = instances as [PostgresHandle, PostgresHandle];
    await expect(alone(a.db, "analytics-roll-up", () => Promise.reject(new Error("failed")))).rejects.toThrow("failed");
    expect(await alone(b.db, "analytics-roll-up", async () => 1)).toBe(1);
  });

  test("three instances rolling up at the same moment count each visitor once", async () => {
    const day = "2026-01-05";
    const visitors = Array.from({ length: 300 }, (_, i) => ({ day, visitor: `v${i}`, steps: 1 }));
    for (let i = 0; i < visitors.length; i += 100)
      await database.db.insert(analyticsVisitors).values(visitors.slice(i, i + 100));
    // Each instance's roll-up starts at once when scheduled, as at every server's start.
    const stops = instances.map((instance) => scheduleRollUp(instance.db, (error) => console.error(error)));
    try {
      const deadline = Date.now() + 15_000;
      while ((await database.db.$count(analyticsVisitors)) > 0) {
        if (Date.now() > deadline) throw new Error("the raw rows were never rolled up");
        await Bun.sleep(20);
      }
      // Every instance's turn is over before the count is read.
      await Promise.all(instances.map((i) => alone(i.db, "analytics-roll-up", async () => null)));
      const [row] = await database.db
        .select({ count: analyticsDaily.count })
        .from(analyticsDaily)
        .where(and(eq(analyticsDaily.day, day), eq(analyticsDaily.metric, METRICS.visitors)));
      expect(row?.count).toBe(300);
    } finally {
      for (const stop of stops) stop();
    }
  });
});
