import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SharedDailyQuota } from "#server/features/limits/shared.ts";
import { memoryLogger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/database.ts";
import { DAILY_LIMITS, MemoryDailyQuota, secondsUntilTomorrow } from "./daily-quota.ts";
import type { Share } from "./fair-share.ts";
import { resultLimit } from "./result-limit.ts";

const DAY = "2026-03-10";

// The database the shared counts are kept in (each test's under a scope of its own).
let testDb: TestDatabase;
let scopes = 0;
beforeAll(async () => {
  testDb = await openTestDatabase({ seed: false });
});
afterAll(() => testDb.close());

describe("MemoryDailyQuota", () => {
  test("each network has its own allowance, everyone shares the daily total; a refusal takes nothing", () => {
    // A floor as large as the allowance: the share never shrinks, only the day fills.
    const quota = new MemoryDailyQuota({ perClient: 2, daily: 5, floor: 2 });
    expect([1, 2, 3].map(() => quota.take("203.0.113.1", DAY))).toEqual(["ok", "ok", "share"]);
    expect([1, 2, 3].map(() => quota.take("203.0.113.2", DAY))).toEqual(["ok", "ok", "share"]);
    const quiet = new MemoryDailyQuota({ perClient: 2, daily: 100, floor: 1 });
    expect([1, 2, 3].map(() => quiet.take("203.0.113.1", DAY))).toEqual(["ok", "ok", "client"]);
    expect(quota.take("203.0.113.3", DAY)).toBe("ok");
    // Everyone's total is reached: a network with allowance left is refused too, and nothing is taken.
    expect(quota.take("203.0.113.4", DAY)).toBe("everyone");
    expect(quota.take("203.0.113.4", DAY)).toBe("everyone");
    // A new day starts everything again.
    expect(quota.take("203.0.113.1", "2026-03-11")).toBe("ok");
  });

  test("an IPv6 client counts by its /64, in any spelling; IPv4-mapped addresses are IPv4", () => {
    const quota = new MemoryDailyQuota({ perClient: 3, daily: 100, floor: 3 });
    for (const address of ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0db8:0001:0002::abcd"])
      expect(quota.take(address, DAY)).toBe("ok");
    expect(quota.take("2001:DB8:1:2:0:0:0:9", DAY)).toBe("client");
    // The next /64 is another network.
    expect(quota.take("2001:db8:1:3::1", DAY)).toBe("ok");
    expect(quota.take("198.51.100.7", DAY)).toBe("ok");
    expect(quota.take("::ffff:198.51.100.7", DAY)).toBe("ok");
    expect(quota.take("::ffff:198.51.100.7", DAY)).toBe("ok");
    expect(quota.take("198.51.100.7", DAY)).toBe("client");
  });

  test("memory stays bounded under a flood of networks; the one still sending is remembered", () => {
    const quota = new MemoryDailyQuota({ perClient: 1, daily: 1_000_000, floor: 1 }, 100);
    expect(quota.take("192.0.2.1", DAY)).toBe("ok");
    for (let i = 0; i < 5000; i++) {
      quota.take(`10.${i >> 8}.${i & 255}.1`, DAY);
      if (i % 50 === 0) expect(quota.take("192.0.2.1", DAY)).toBe("client");
      expect(quota.remembered).toBeLessThanOrEqual(100);
    }
    expect(quota.take("192.0.2.1", DAY)).toBe("client");
  });

  test("refused networks that saved nothing take no memory and push nobody out", () => {
    const quota = new MemoryDailyQuota({ perClient: 100, daily: 400, floor: 2 }, 50);
    for (let i = 0; i < 100; i++) expect(quota.take("2001:db8:1:1::1", DAY)).toBe("ok");
    // A quarter full: 10 a network, 160 for a /48, taken by /64s of six other /56s.
    for (let k = 1; k <= 6; k++)
      for (let i = 0; i < 10; i++) expect(quota.take(`2001:db8:1:${(k * 256).toString(16)}::1`, DAY)).toBe("ok");
    // The /48 has had its share: its other /64s are refused and not stored.
    const remembered = quota.remembered;
    for (let i = 0; i < 5000; i++) expect(quota.take(`2001:db8:1:${(0x1000 + i).toString(16)}::1`, DAY)).toBe("block");
    expect(quota.remembered).toBe(remembered);
    expect(quota.take("2001:db8:1:1::1", DAY)).toBe("share");
    expect(quota.total).toBe(160);
  });

  test("seconds until the next UTC midnight", () => {
    expect(secondsUntilTomorrow(new Date("2026-03-10T23:59:59.500Z"))).toBe(1);
    expect(secondsUntilTomorrow(new Date("2026-03-10T00:00:00Z"))).toBe(86_400);
    expect(secondsUntilTomorrow(new Date("2026-12-31T12:00:00Z"))).toBe(43_200);
  });

  test("the defaults leave a busy site room: a whole carrier NAT's visitors, and four times a busy day's", () => {
    expect(DAILY_LIMITS.visitorsPerClient).toBeGreaterThanOrEqual(1000);
    expect(DAILY_LIMITS.visitors).toBeGreaterThanOrEqual(4 * 50_000);
    expect(DAILY_LIMITS.results).toBeGreaterThanOrEqual(50_000);
  });
});

describe.each([
  ["in memory", (share: Share) => new MemoryDailyQuota(share)],
  ["in the database", (share: Share) => new SharedDailyQuota(testDb.db, share, `results:${++scopes}`)],
] as const)("resultLimit, with its counts %s", (_, quota) => {
  let clock = new Date("2026-03-10T18:00:00Z");
  const make = (share: Share) => {
    const logger = memoryLogger();
    const limit = resultLimit({
      what: "quiz results",
      share,
      quota: quota(share),
      client: (request) => ({
        address: request.headers.get("x-test-address") ?? "",
        https: false,
        schemeForwarded: false,
        viaProxy: false,
      }),
      logger,
      now: () => clock,
    });
    const from = (address: string) => () =>
      limit(new Request("http://x/", { headers: { "x-test-address": address } }), null);
    return { from, logger };
  };
  const refusal = async (take: () => Promise<void>) => {
    try {
      await take();
      return null;
    } catch (error) {
      return error as HttpError;
    }
  };
  const lines = (logger: { lines: string[] }) => logger.lines.filter((line) => line.includes("daily limit"));

  test("one network past its limit on a quiet day: 429 with Retry-After until midnight UTC and a sentence", async () => {
    clock = new Date("2026-03-10T18:00:00Z");
    const { from } = make({ perClient: 2, daily: 100, floor: 1 });
    expect(await refusal(from("203.0.113.9"))).toBeNull();
    expect(await refusal(from("203.0.113.9"))).toBeNull();
    const error = (await refusal(from("203.0.113.9")))!;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ "retry-after": "21600" });
    expect(error.message).toBe(
      "Too many quiz results were saved from your network today (the limit is 2 a day). Yours was not saved: please try again tomorrow.",
    );
  });

  test("under pressure: the heavy network, then its IPv6 block, are refused with their own sentence; a new network is served", async () => {
    clock = new Date("2026-03-10T23:00:00Z");
    const { from, logger } = make({ perClient: 40, daily: 100, floor: 1 });
    for (let i = 0; i < 25; i++) expect(await refusal(from("2001:db8:5:100::1"))).toBeNull();
    // A quarter of the day's ceiling: 4 a network now, 16 for a /56.
    const share = (await refusal(from("2001:db8:5:100::1")))!;
    expect(share.status).toBe(429);
    expect(share.headers).toEqual({ "retry-after": "3600" });
    expect(share.message).toBe(
      "So many quiz results have been saved today that the site keeps only a few more from each network, and yours has had its share. This one was not saved: please try again tomorrow.",
    );
    const block = (await refusal(from("2001:db8:5:1ff::1")))!;
    expect(block.status).toBe(429);
    expect(block.message).toBe(
      "So many quiz results have been saved today that the site keeps only a few more from each network and from each block of networks a provider hands out, and the block yours belongs to has had its share. This one was not saved: please try again tomorrow.",
    );
    expect(await refusal(from("2001:db8:6::1"))).toBeNull();
    expect(await refusal(from("198.51.100.1"))).toBeNull();
    // Each kind of refusal is logged once a day, naming no address.
    await refusal(from("2001:db8:5:100::1"));
    expect(lines(logger)).toHaveLength(2);
    expect(lines(logger).join("\n")).not.toContain("2001:db8");
    // The next UTC day starts again.
    clock = new Date("2026-03-11T00:00:01Z");
    expect(await refusal(from("2001:db8:5:100::1"))).toBeNull();
    expect(await refusal(from("2001:db8:5:1ff::1"))).toBeNull();
  });

  test("everyone past the day's total: 503 for every network, logged once with no address", async () => {
    clock = new Date("2026-03-10T18:00:00Z");
    const { from, logger } = make({ perClient: 2, daily: 3, floor: 2 });
    for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
      expect(await refusal(from(address))).toBeNull();
    for (const address of ["203.0.113.4", "2001:db8::1", "203.0.113.4"]) {
      const error = (await refusal(from(address)))!;
      expect(error.status).toBe(503);
      expect(error.message).toMatch(/^The site has saved as many quiz results today as it keeps in a day/);
    }
    expect(lines(logger)).toHaveLength(1);
    expect(lines(logger)[0]).not.toContain("203.0.113");
  });
});
