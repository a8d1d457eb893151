import { describe, expect, test } from "bun:test";
import { memoryLogger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { DAILY_LIMITS, DailyQuota, secondsUntilTomorrow } from "./daily-quota.ts";
import { resultLimit } from "./result-limit.ts";

const DAY = "2026-03-10";

describe("DailyQuota", () => {
  test("each network has its own allowance, everyone shares the daily total; a refusal takes nothing", () => {
    const quota = new DailyQuota(2, 5);
    expect([1, 2, 3].map(() => quota.take("203.0.113.1", DAY))).toEqual(["ok", "ok", "client"]);
    expect([1, 2, 3].map(() => quota.take("203.0.113.2", DAY))).toEqual(["ok", "ok", "client"]);
    expect(quota.take("203.0.113.3", DAY)).toBe("ok");
    // Everyone's total is reached: a network with allowance left is refused too, and nothing is taken.
    expect(quota.take("203.0.113.4", DAY)).toBe("everyone");
    expect(quota.take("203.0.113.4", DAY)).toBe("everyone");
    // A new day starts everything again.
    expect(quota.take("203.0.113.1", "2026-03-11")).toBe("ok");
  });

  test("an IPv6 client counts by its /64, in any spelling; IPv4-mapped addresses are IPv4", () => {
    const quota = new DailyQuota(3, 100);
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
    const quota = new DailyQuota(1, 1_000_000, 100);
    expect(quota.take("192.0.2.1", DAY)).toBe("ok");
    for (let i = 0; i < 5000; i++) {
      quota.take(`10.${i >> 8}.${i & 255}.1`, DAY);
      if (i % 50 === 0) expect(quota.take("192.0.2.1", DAY)).toBe("client");
      expect(quota.clients).toBeLessThanOrEqual(100);
    }
    expect(quota.take("192.0.2.1", DAY)).toBe("client");
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

describe("resultLimit", () => {
  const now = () => new Date("2026-03-10T18:00:00Z");
  const make = () => {
    const logger = memoryLogger();
    const limit = resultLimit({
      what: "quiz results",
      perClient: 2,
      daily: 3,
      client: (request) => ({
        address: request.headers.get("x-test-address") ?? "",
        https: false,
        schemeForwarded: false,
        viaProxy: false,
      }),
      logger,
      now,
    });
    const from = (address: string) => () =>
      limit(new Request("http://x/", { headers: { "x-test-address": address } }), null);
    return { from, logger };
  };
  const refusal = (take: () => void) => {
    try {
      take();
      return null;
    } catch (error) {
      return error as HttpError;
    }
  };

  test("one network past its limit: 429 with Retry-After until midnight UTC and a sentence", () => {
    const { from } = make();
    expect(refusal(from("203.0.113.9"))).toBeNull();
    expect(refusal(from("203.0.113.9"))).toBeNull();
    const error = refusal(from("203.0.113.9"))!;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ "retry-after": "21600" });
    expect(error.message).toBe(
      "Too many quiz results were saved from your network today (the limit is 2 a day). Yours was not saved: please try again tomorrow.",
    );
  });

  test("everyone past the day's total: 503 for every network, logged once with no address", () => {
    const { from, logger } = make();
    for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) expect(refusal(from(address))).toBeNull();
    for (const address of ["203.0.113.4", "2001:db8::1", "203.0.113.4"]) {
      const error = refusal(from(address))!;
      expect(error.status).toBe(503);
      expect(error.message).toMatch(/^The site has saved as many quiz results today as it keeps in a day/);
    }
    const lines = logger.lines.filter((line) => line.includes("daily limit"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("203.0.113");
  });
});
