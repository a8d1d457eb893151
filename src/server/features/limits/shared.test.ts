import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MemoryDailyQuota } from "#server/lib/daily-quota.ts";
import { WriteLimiter } from "#server/plugins/write-limit.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/database.ts";
import { LoginThrottle } from "../auth/throttle.ts";
import {
  forgetExpiredLimits,
  markVisitorOver,
  SharedDailyQuota,
  SharedLoginThrottle,
  SharedWriteLimiter,
  VISITOR_OVER,
  visitorEvents,
} from "./shared.ts";
import { sharedLimits } from "./table.ts";

// The budgets kept in the database answer exactly as their in-memory twins on one server: the
// same requests at the same moments get the same answers. (shared.pg.test.ts runs these on
// PostgreSQL too, and adds instances racing for the last write.)

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase({ seed: false });
});
afterAll(() => testDb.close());

/** A small deterministic random sequence, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ADDRESSES = ["203.0.113.7", "198.51.100.2", "2001:db8:1:2::5", "2001:db8:1:2::9", "2001:db8:1:3::1"];

describe("SharedWriteLimiter", () => {
  test("takes and refuses as WriteLimiter does, with the same waits", async () => {
    let now = 1_700_000_000_000;
    const limit = { count: 4, windowSeconds: 60 };
    const memory = new WriteLimiter(limit, { now: () => now });
    const shared = new SharedWriteLimiter(testDb.db, limit, "write-twin", () => now);
    const next = random(7);
    const answers: [number, number][] = [];
    for (let i = 0; i < 300; i++) {
      now += Math.floor(next() * 9_000);
      const address = ADDRESSES[Math.floor(next() * ADDRESSES.length)]!;
      answers.push([memory.take(address), await shared.take(address)]);
    }
    for (const [mine, theirs] of answers) expect(theirs).toBe(mine);
    // Both refused sometimes and let through sometimes: the sequence tried both.
    expect(answers.filter(([a]) => a > 0).length).toBeGreaterThan(20);
    expect(answers.filter(([a]) => a === 0).length).toBeGreaterThan(20);
  });

  test("a network's budget is its own: one address spending its writes leaves the next its full share", async () => {
    const now = 1_800_000_000_000;
    const shared = new SharedWriteLimiter(testDb.db, { count: 2, windowSeconds: 10 }, "write-own", () => now);
    expect([await shared.take("192.0.2.1"), await shared.take("192.0.2.1"), await shared.take("192.0.2.1")]).toEqual([
      0, 0, 5,
    ]);
    expect(await shared.take("192.0.2.2")).toBe(0);
  });
});

describe("SharedDailyQuota", () => {
  test("admits and refuses as MemoryDailyQuota does, under pressure too", async () => {
    const share = { perClient: 6, daily: 60, floor: 1 };
    const memory = new MemoryDailyQuota(share);
    const shared = new SharedDailyQuota(testDb.db, share, "quota-twin");
    const next = random(11);
    const answers: [string, string][] = [];
    for (let i = 0; i < 200; i++) {
      // A day and a half: the count starts again at midnight in both.
      const day = i < 150 ? "2026-03-10" : "2026-03-11";
      // A quiet start from two networks (which reach their own limit), then many.
      const address =
        i < 14
          ? ADDRESSES[i % 2]!
          : next() < 0.5
            ? ADDRESSES[Math.floor(next() * ADDRESSES.length)]!
            : `198.51.100.${i}`;
      answers.push([memory.take(address, day), await shared.take(address, day)]);
    }
    expect(answers.map(([, theirs]) => theirs)).toEqual(answers.map(([mine]) => mine));
    expect(new Set(answers.map(([a]) => a))).toEqual(new Set(["ok", "client", "share", "everyone"]));
  });
});

describe("SharedLoginThrottle", () => {
  test("reserves, refuses and forgets as LoginThrottle does, the site-wide gate included", async () => {
    let now = 1_700_000_000_000;
    const options = { siteFree: 4, siteCapMs: 8_000 };
    const memory = new LoginThrottle(3, 60_000, () => now, options);
    const shared = new SharedLoginThrottle(testDb.db, "sign-in-twin", 3, 60_000, () => now, options);
    const next = random(3);
    const seen: string[] = [];
    const mine: string[] = [];
    for (let i = 0; i < 250; i++) {
      now += Math.floor(next() * 4_000);
      const address = ADDRESSES[Math.floor(next() * ADDRESSES.length)]!;
      const right = next() < 0.15;
      const a = memory.begin(address);
      const b = await shared.begin(address);
      const say = (answer: typeof a) => (answer.allowed ? "allowed" : `${answer.scope} ${answer.retryAfter}`);
      mine.push(say(a));
      seen.push(say(b));
      for (const answer of [a, b]) {
        if (!answer.allowed) continue;
        if (right) await answer.succeed();
        else answer.fail();
      }
    }
    expect(seen).toEqual(mine);
    expect(mine.some((s) => s.startsWith("client"))).toBe(true);
    expect(mine.some((s) => s.startsWith("site"))).toBe(true);
  });

  test("an attempt counts from the moment it begins: one still being checked is not a free try", async () => {
    const shared = new SharedLoginThrottle(testDb.db, "sign-in-pending", 2);
    const first = await shared.begin("192.0.2.50");
    const second = await shared.begin("192.0.2.50");
    expect([first.allowed, second.allowed]).toEqual([true, true]);
    expect((await shared.begin("192.0.2.50")).allowed).toBe(false);
    // A right password takes its own attempt back and forgets the network's failures.
    if (first.allowed) await first.succeed();
    expect((await shared.begin("192.0.2.50")).allowed).toBe(true);
  });
});

describe("a visitor's events of the day", () => {
  test("add up across requests; a visitor marked over stays over", async () => {
    expect(await visitorEvents(testDb.db, "2026-03-10", "a".repeat(32), 2)).toBe(2);
    expect(await visitorEvents(testDb.db, "2026-03-10", "a".repeat(32), 3)).toBe(5);
    // Another day, another count.
    expect(await visitorEvents(testDb.db, "2026-03-11", "a".repeat(32), 1)).toBe(1);
    expect(await visitorEvents(testDb.db, "2026-03-10", "b".repeat(32), 1)).toBe(1);
    await markVisitorOver(testDb.db, "2026-03-10", "b".repeat(32));
    expect(await visitorEvents(testDb.db, "2026-03-10", "b".repeat(32), 1)).toBe(VISITOR_OVER);
  });
});

test("rows past their time are deleted, the rest kept", async () => {
  const { db } = testDb;
  await db.insert(sharedLimits).values([
    { scope: "expiry", key: "old", value: 1, expiresAt: 1_000 },
    { scope: "expiry", key: "new", value: 1, expiresAt: 3_000 },
  ]);
  expect(await forgetExpiredLimits(db, 2_000)).toBeGreaterThanOrEqual(1);
  const left = await db.select({ key: sharedLimits.key }).from(sharedLimits);
  expect(left.map((row) => row.key)).toContain("new");
  expect(left.map((row) => row.key)).not.toContain("old");
});
