import { clientBlocks, clientKey } from "./client.ts";

// How a day's ceiling on one kind of anonymous row is shared out (decision 061). While the day
// is quiet each network may add its whole daily allowance. As the day's total passes each
// quarter of the ceiling the allowance shrinks, so the networks that added most are refused
// first, and the last quarter is kept for networks adding their first few: reaching the
// ceiling then takes thousands of unrelated networks, not a hundred. Under pressure an IPv6
// network's /56 and /48 have allowances of their own, so one allocation (a home's /56 holds
// 256 /64s, a /48 65,536) cannot pose as thousands of networks. IPv4 stays per address: a
// /24 is often hundreds of unrelated households, and addresses are scarce.
//
// Pure, so a counter kept in memory and one kept in a database judge alike.

/** The daily bounds of one kind of row. */
export interface Share {
  /** What one network may add while the day is quiet. */
  perClient: number;
  /** What everyone may add in a day: the ceiling, beyond which nothing is added. */
  daily: number;
  /** What a network may add in the last quarter of the ceiling: its first few. */
  floor: number;
}

/**
 * Why a row was not added, or "ok": the network's daily allowance while the day is quiet
 * ("client"); under pressure the network's smaller share ("share") or its IPv6 block's
 * ("block"); the ceiling for everyone ("everyone").
 */
export type QuotaAnswer = "ok" | "client" | "share" | "block" | "everyone";

/** A network's allowance in the first three quarters of the ceiling: `perClient` divided by this, never below the floor; in the last quarter, the floor. */
const DIVISORS = [1, 10, 50] as const;

/** Under pressure, an IPv6 /56 may add as much as this many networks, a /48 as much as that many. */
const BLOCK_NETWORKS = { 56: 4, 48: 16 } as const;

/** How full the day is: 0 below a quarter of the ceiling (no pressure), up to 3 from three quarters on. */
export function pressure(total: number, daily: number): 0 | 1 | 2 | 3 {
  return Math.max(0, Math.min(3, Math.floor((total * 4) / daily))) as 0 | 1 | 2 | 3;
}

/** What one network may have added today, counting this one, while the day is at `level`. */
export function allowance({ perClient, floor }: Share, level: number): number {
  const divisor = DIVISORS[level];
  if (divisor === undefined) return Math.min(perClient, floor);
  return Math.min(perClient, Math.max(floor, Math.floor(perClient / divisor)));
}

/**
 * The keys a request counts under: its network (an IPv4 address, an IPv6 /64), then for IPv6
 * its /56 and /48.
 */
export function quotaKeys(address: string): string[] {
  return [clientKey(address), ...clientBlocks(address)];
}

/**
 * Whether one more row may be added, given the day's `total` and what was added today under
 * each of `quotaKeys` (in that order).
 */
export function judge(share: Share, total: number, counts: readonly number[]): QuotaAnswer {
  const level = pressure(total, share.daily);
  const mine = allowance(share, level);
  if ((counts[0] ?? 0) >= mine) return level === 0 ? "client" : "share";
  if (total >= share.daily) return "everyone";
  if (level > 0 && ((counts[1] ?? 0) >= BLOCK_NETWORKS[56] * mine || (counts[2] ?? 0) >= BLOCK_NETWORKS[48] * mine))
    return "block";
  return "ok";
}
