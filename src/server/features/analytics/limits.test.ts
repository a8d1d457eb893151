import { describe, expect, test } from "bun:test";
import { DAILY_LIMITS } from "#server/lib/daily-quota.ts";
import { DAILY_EVENTS_PER_VISITOR, METRICS, OTHER_KEY, OVER_LIMIT_KEY } from "#shared/features/analytics/constants.ts";
import { CountLimits } from "./limits.ts";

const DAY = "2026-03-10";
// A visitor hash as the server makes them: 32 hex digits, different from the start.
const hash = (n: number) => n.toString(16).padStart(13, "0").padEnd(32, "7");
let next = 1_000_000;
const click = [{ metric: METRICS.click, key: "platform-a/footer" }];
const referrer = (site: string) => [{ metric: METRICS.referrer, key: site }];

describe("CountLimits", () => {
  test("new visitors: one network's share, then everyone's; the rest in each metric's (over the limit) total", () => {
    const limits = new CountLimits({ ...DAILY_LIMITS, visitorsPerClient: 3, visitors: 5 });
    const kinds = (address: string, from: number) =>
      [0, 1, 2, 3].map((i) => limits.admit(address, hash(from + i), click, DAY).kind);
    expect(kinds("203.0.113.1", 0)).toEqual(["count", "count", "count", "over"]);
    expect(kinds("2001:db8:7:7::1", 100)).toEqual(["count", "count", "over", "over"]);
    expect(limits.admit("198.51.100.1", hash(200), click, DAY)).toEqual({
      kind: "over",
      events: [{ metric: METRICS.click, key: OVER_LIMIT_KEY }],
    });
    // A visitor admitted earlier still counts in full, from any address.
    expect(limits.admit("198.51.100.1", hash(0), click, DAY)).toEqual({ kind: "count", events: click });
    // The next day starts again.
    expect(limits.admit("203.0.113.1", hash(300), click, "2026-03-11").kind).toBe("count");
  });

  test("one visitor repeating itself past its daily events counts only as a bot", () => {
    const limits = new CountLimits();
    for (let i = 0; i < DAILY_EVENTS_PER_VISITOR; i++)
      expect(limits.admit("203.0.113.1", hash(1), click, DAY).kind).toBe("count");
    expect(limits.admit("203.0.113.1", hash(1), click, DAY)).toEqual({
      kind: "bot",
      events: [{ metric: METRICS.bot, key: "over-daily-limit" }],
    });
  });

  test("new referrer sites: a network's share of the day's slots, which shrinks as they are taken, so one network's flood leaves room for the rest", () => {
    const limits = new CountLimits({ ...DAILY_LIMITS, newValuesPerClient: 10, newValues: 40, newValuesFloor: 1 });
    const keys = (address: string, sites: string[]) =>
      sites.map((site) => {
        const admitted = limits.admit(address, hash(next++), referrer(site), DAY);
        return admitted.events[0]!.key;
      });
    const flood = Array.from({ length: 50 }, (_, i) => `spam-${i}.example`);
    const flooded = keys("203.0.113.66", flood);
    expect(flooded.filter((key) => key !== OTHER_KEY)).toHaveLength(10);
    expect(flooded.slice(10).every((key) => key === OTHER_KEY)).toBe(true);
    // A real referrer from another network is recorded; one already recorded takes no slot.
    expect(keys("198.51.100.4", ["news.example", "spam-0.example"])).toEqual(["news.example", "spam-0.example"]);
    // A quarter of the slots is taken: one new site a network from now on.
    expect(keys("198.51.100.5", ["a.example", "b.example"])).toEqual(["a.example", OTHER_KEY]);
    // utm_source values have slots of their own.
    const utm = limits.admit("203.0.113.66", hash(999_999), [{ metric: METRICS.utmSource, key: "newsletter" }], DAY);
    expect(utm.events).toEqual([{ metric: METRICS.utmSource, key: "newsletter" }]);
    // Many networks together stop at everyone's slots.
    for (let n = 0; n < 30; n++)
      keys(
        `192.0.2.${n}`,
        Array.from({ length: 3 }, (_, i) => `n${n}-${i}.example`),
      );
    expect(keys("198.51.100.6", ["late.example"])).toEqual([OTHER_KEY]);
  });

  test("under pressure the /64s of one IPv6 /56 or /48 share its allowance, for visitors and for referrer sites", () => {
    const limits = new CountLimits({
      ...DAILY_LIMITS,
      visitorsPerClient: 100,
      visitors: 400,
      visitorsFloor: 1,
      newValuesPerClient: 10,
      newValues: 40,
    });
    // 256 /64s of one /56, each with new visitors and new referrers until refused.
    const admitted = { visitors: 0, referrers: 0 };
    for (let j = 0; j < 256; j++)
      for (let i = 0; i < 120; i++) {
        const a = limits.admit(`2001:db8:7:${j.toString(16)}::1`, hash(next++), referrer(`s${j}-${i}.example`), DAY);
        if (a.kind !== "count") break;
        admitted.visitors++;
        if (a.events[0]!.key !== OTHER_KEY) admitted.referrers++;
      }
    // The quiet quarter, then a /56 has 4 networks' share (40 visitors, 4 sites), already used.
    expect(admitted).toEqual({ visitors: 100, referrers: 10 });
    // A visitor and a referrer from an unrelated network are still admitted.
    expect(limits.admit("198.51.100.9", hash(next++), referrer("real.example"), DAY)).toEqual({
      kind: "count",
      events: referrer("real.example"),
    });
  });
});
