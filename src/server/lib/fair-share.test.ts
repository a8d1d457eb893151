import { describe, expect, test } from "bun:test";
import { DAILY_LIMITS, MemoryDailyQuota, sharesOf } from "./daily-quota.ts";
import { allowance, judge, pressure, quotaKeys, type Share } from "./fair-share.ts";

const DAY = "2026-03-10";
const { results, visitors, newValues } = sharesOf(DAILY_LIMITS);

describe("the share of a day's ceiling", () => {
  test("a network's allowance shrinks with each quarter of the ceiling the day has reached", () => {
    const quarters = [0, 1, 2, 3].map((level) => allowance(results, level));
    expect(quarters).toEqual([500, 50, 10, 3]);
    expect([0, 1, 2, 3].map((level) => allowance(visitors, level))).toEqual([2000, 200, 40, 3]);
    expect([0, 1, 2, 3].map((level) => allowance(newValues, level))).toEqual([10, 1, 1, 1]);
    expect([0, 12_499, 12_500, 24_999, 25_000, 37_500, 50_000, 80_000].map((t) => pressure(t, 50_000))).toEqual([
      0, 0, 1, 1, 2, 3, 3, 3,
    ]);
    // Never more than a quiet day's allowance, and lifted limits stay lifted.
    expect(allowance({ perClient: 2, daily: 100, floor: 3 }, 3)).toBe(2);
    const lifted = { perClient: Number.POSITIVE_INFINITY, daily: 100, floor: Number.POSITIVE_INFINITY };
    expect([0, 1, 2, 3].map((level) => allowance(lifted, level))).toEqual(Array(4).fill(Number.POSITIVE_INFINITY));
  });

  test("the networks that saved most are refused first; a network saving its first is served until the ceiling", () => {
    const share: Share = { perClient: 100, daily: 400, floor: 2 };
    // Quiet: each network its whole allowance.
    expect(judge(share, 0, [99])).toBe("ok");
    expect(judge(share, 99, [100])).toBe("client");
    // A quarter full: 10 each; three quarters: 2 each; full: nobody.
    expect(judge(share, 100, [10])).toBe("share");
    expect(judge(share, 100, [9])).toBe("ok");
    expect(judge(share, 300, [2])).toBe("share");
    expect(judge(share, 399, [1])).toBe("ok");
    expect(judge(share, 399, [0])).toBe("ok");
    expect(judge(share, 400, [0])).toBe("everyone");
  });

  test("under pressure an IPv6 /56 may save as much as 4 networks and a /48 as much as 16; never while the day is quiet", () => {
    const share: Share = { perClient: 100, daily: 400, floor: 2 };
    expect(quotaKeys("2001:db8:1:2ff:1:2:3:4")).toEqual([
      "2001:db8:1:2ff::/64",
      "2001:db8:1:200::/56",
      "2001:db8:1::/48",
    ]);
    expect(quotaKeys("::ffff:198.51.100.7")).toEqual(["198.51.100.7"]);
    expect(quotaKeys("local")).toEqual(["local"]);
    expect(judge(share, 0, [0, 5_000, 50_000])).toBe("ok");
    expect(judge(share, 100, [0, 39, 159])).toBe("ok");
    expect(judge(share, 100, [0, 40, 0])).toBe("block");
    expect(judge(share, 100, [0, 0, 160])).toBe("block");
    expect(judge(share, 300, [0, 8, 0])).toBe("block");
    expect(judge(share, 300, [0, 7, 31])).toBe("ok");
  });
});

// ---------------------------------------------------------------------------------------------
// How many unrelated networks a flood needs before a new visitor's first result is refused.

/** A network (an address), or a provider block of them: a list that may be long, made as it is walked. */
type Tree = string | (() => Iterable<Tree>);

function* range<T>(count: number, make: (i: number) => T): Iterable<T> {
  for (let i = 0; i < count; i++) yield make(i);
}

/**
 * The flood each attacker would send: every network saves until refused; once a network of a
 * block cannot save its first, the block is done and the next is used. Answers how many of
 * `units` saved anything before the ceiling was reached (or all of them were used), and the
 * networks among them.
 */
function flood(quota: MemoryDailyQuota, units: Iterable<Tree>) {
  let networks = 0;
  const save = (tree: Tree): number => {
    if (typeof tree === "string") {
      let n = 0;
      while (quota.take(tree, DAY) === "ok") n++;
      if (n > 0) networks++;
      return n;
    }
    let n = 0;
    for (const child of tree()) {
      const saved = save(child);
      if (saved === 0) break;
      n += saved;
    }
    return n;
  };
  let used = 0;
  for (const unit of units) {
    if (quota.total >= quota.share.daily) break;
    if (save(unit) > 0) used++;
  }
  return { used, networks, denied: quota.total >= quota.share.daily };
}

const ipv4 = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
/** /64 number `j` of /56 number `k` of /48 number `i`, each /48 in 3fff::/20 (documentation space). */
const ipv6 = (i: number, k = 0, j = 0) =>
  `3fff:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}:${((k << 8) | j).toString(16)}::1`;
const slash56 =
  (i: number, k = 0) =>
  () =>
    range(256, (j) => ipv6(i, k, j));
const slash48 = (i: number) => () => range(256, (k) => slash56(i, k));
const ENOUGH = 1_000_000;

describe("what a flood needs to deny a new visitor its first result (the default limits)", () => {
  // Before (decision 051): 500 a network, 50,000 for everyone, IPv6 by its /64 only: 100
  // networks of any kind, so one /57 of a home's /56.
  const before = Math.ceil(DAILY_LIMITS.results / DAILY_LIMITS.resultsPerClient);
  // Whatever the order: the last quarter of the ceiling is saved only by networks that had
  // saved fewer than the floor, so at least that many networks.
  const lowerBound = Math.ceil(DAILY_LIMITS.results / 4 / DAILY_LIMITS.resultsFloor);

  test("IPv4 addresses, or /64s each in a provider block of its own: 100 before, 5,692 now", () => {
    expect(before).toBe(100);
    const v4 = flood(
      new MemoryDailyQuota(results),
      range(ENOUGH, (i) => ipv4(i)),
    );
    expect(v4).toEqual({ used: 5_692, networks: 5_692, denied: true });
    expect(v4.used).toBeGreaterThanOrEqual(lowerBound);
    expect(lowerBound).toBe(4_167);
    const v6 = flood(
      new MemoryDailyQuota(results),
      range(ENOUGH, (i) => ipv6(i)),
    );
    expect(v6).toEqual(v4);
  });

  test.each([
    ["/56s, each in a /48 of its own: 1 before, 1,419 now", (i: number): Tree => slash56(i), 1_419, 4],
    ["/48s: 1 before, 356 now", (i: number): Tree => slash48(i), 356, 16],
  ])("%s", (_name, network, used, floorNetworks) => {
    const attack = flood(new MemoryDailyQuota(results), range(ENOUGH, network));
    expect(attack).toMatchObject({ used, denied: true });
    // Whatever the order, the last quarter at the floor of `floorNetworks` networks per block.
    expect(attack.used).toBeGreaterThanOrEqual(Math.ceil(12_500 / (floorNetworks * 3)));
  });

  test("after 256 /64s of one /56, or a whole /48, a visitor on a new network saves a result", () => {
    for (const [block, i] of [
      [slash56(7), 7],
      [slash48(8), 8],
    ] as const) {
      const quota = new MemoryDailyQuota(results);
      const attack = flood(quota, [block]);
      // The quiet quarter is reached with 25 /64s; from then on the block is one network of many.
      expect(attack).toEqual({ used: 1, networks: 25, denied: false });
      expect(quota.total).toBe(12_500);
      expect(quota.take("198.51.100.1", DAY)).toBe("ok");
      expect(quota.take(ipv6(9), DAY)).toBe("ok");
      // Its neighbours share its blocks: a new /64 of the /56, or of another /56 of the /48, is refused.
      expect(quota.take(ipv6(i, 0, 255), DAY)).toBe("block");
      expect(quota.take(ipv6(i, 1, 0), DAY)).toBe("block");
    }
  });

  test("after 1,000 IPv4 addresses each saving until refused, a visitor on a new network saves a result", () => {
    const quota = new MemoryDailyQuota(results);
    expect(
      flood(
        quota,
        range(1_000, (i) => ipv4(i)),
      ),
    ).toEqual({ used: 1_000, networks: 1_000, denied: false });
    // 25 at 500, 250 at 50, 725 at 10: the third quarter.
    expect(quota.total).toBe(32_250);
    expect(quota.take("198.51.100.1", DAY)).toBe("ok");
    expect(quota.take("3fff:ffff:1::1", DAY)).toBe("ok");
  });
});
