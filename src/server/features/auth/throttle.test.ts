import { describe, expect, test } from "bun:test";
import { LoginThrottle, type Refusal, type Reservation } from "./throttle.ts";

const MINUTE = 60_000;

function clock() {
  const time = { now: 1_000_000 };
  return { time, now: () => time.now };
}

function allowed(attempt: Reservation | Refusal): Reservation {
  if (!attempt.allowed) throw new Error(`refused: ${JSON.stringify(attempt)}`);
  return attempt;
}

describe("the sign-in throttle", () => {
  test("attempts are reserved before the check: in-flight ones count, so a burst gets only the limit", () => {
    const { now } = clock();
    const throttle = new LoginThrottle(5, 15 * MINUTE, now);
    const results = Array.from({ length: 50 }, () => throttle.begin("203.0.113.9"));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.filter((r) => !r.allowed).every((r) => r.scope === "client")).toBe(true);
  });

  test("a success releases its slot and forgets the client's failures", () => {
    const { now } = clock();
    const throttle = new LoginThrottle(3, 15 * MINUTE, now);
    allowed(throttle.begin("198.51.100.1")).fail();
    allowed(throttle.begin("198.51.100.1")).fail();
    allowed(throttle.begin("198.51.100.1")).succeed();
    expect(throttle.size).toBe(0);
    for (let i = 0; i < 3; i++) allowed(throttle.begin("198.51.100.1")).fail();
    expect(throttle.begin("198.51.100.1").allowed).toBe(false);
  });

  test("settling twice counts once", () => {
    const { now } = clock();
    const throttle = new LoginThrottle(2, 15 * MINUTE, now);
    const attempt = allowed(throttle.begin("198.51.100.1"));
    attempt.fail();
    attempt.fail();
    attempt.succeed();
    expect(throttle.begin("198.51.100.1").allowed).toBe(true);
  });

  test("Retry-After is the time until the oldest failure leaves the window; then one more is allowed", () => {
    const { time, now } = clock();
    const throttle = new LoginThrottle(5, 15 * MINUTE, now);
    for (let i = 0; i < 5; i++) {
      allowed(throttle.begin("203.0.113.9")).fail();
      time.now += MINUTE;
    }
    // The first failure was 5 minutes ago: 10 minutes to go.
    expect(throttle.begin("203.0.113.9")).toEqual({ allowed: false, retryAfter: 600, scope: "client" });
    time.now += 10 * MINUTE;
    allowed(throttle.begin("203.0.113.9")).fail();
    expect(throttle.begin("203.0.113.9")).toMatchObject({ allowed: false, retryAfter: 60 });
  });

  test("clients are counted apart; IPv6 by /64, mapped IPv4 as IPv4", () => {
    const { now } = clock();
    const throttle = new LoginThrottle(2, 15 * MINUTE, now);
    allowed(throttle.begin("2001:db8:1:2::1")).fail();
    allowed(throttle.begin("2001:db8:1:2::ffff")).fail();
    expect(throttle.begin("2001:db8:1:2:abcd::1").allowed).toBe(false);
    expect(throttle.begin("2001:db8:1:3::1").allowed).toBe(true);
    allowed(throttle.begin("::ffff:192.0.2.1")).fail();
    allowed(throttle.begin("192.0.2.1")).fail();
    expect(throttle.begin("::ffff:192.0.2.1").allowed).toBe(false);
  });

  test("under attack from many addresses, a clean address is still checked at once; others wait a short, capped time", () => {
    const { time, now } = clock();
    const throttle = new LoginThrottle(5, 15 * MINUTE, now, { siteFree: 10, siteCapMs: 30_000 });
    // Twenty addresses fail once each: the site is under attack.
    for (let i = 0; i < 20; i++) allowed(throttle.begin(`198.51.100.${i}`)).fail();
    // The admin, from an address with no failure, is checked at once.
    allowed(throttle.begin("203.0.113.50")).succeed();
    // A failed address takes the next slot; the one after waits, never more than the cap.
    allowed(throttle.begin("198.51.100.1")).fail();
    const refused = throttle.begin("198.51.100.2");
    expect(refused).toEqual({ allowed: false, retryAfter: 30, scope: "site" });
    time.now += 30_000;
    allowed(throttle.begin("198.51.100.2")).fail();
    // When the failures leave the window, the gate opens again.
    time.now += 15 * MINUTE;
    allowed(throttle.begin("198.51.100.3")).fail();
    allowed(throttle.begin("198.51.100.3")).fail();
  });

  test("the site-wide spacing grows 1 s, 2 s, 4 s... from the first failure past the free ones", () => {
    const { time, now } = clock();
    const throttle = new LoginThrottle(100, 15 * MINUTE, now, { siteFree: 3, siteCapMs: 30_000 });
    const gaps: number[] = [];
    for (let i = 0; i < 12; i++) {
      let waited = 0;
      for (;;) {
        const next = throttle.begin("198.51.100.7");
        if (next.allowed) {
          next.fail();
          break;
        }
        waited += next.retryAfter;
        time.now += next.retryAfter * 1000;
      }
      gaps.push(waited);
    }
    expect(gaps).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 30, 30, 30]);
  });

  test("memory stays bounded under a flood of unique addresses", () => {
    const { time, now } = clock();
    const throttle = new LoginThrottle(5, 15 * MINUTE, now, { maxClients: 1000, siteFree: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 50_000; i++) {
      allowed(throttle.begin(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)).fail();
      time.now += 1;
    }
    expect(throttle.size).toBeLessThanOrEqual(1000);
    // The most recent attacker is still remembered.
    for (let i = 0; i < 4; i++) allowed(throttle.begin("10.0.195.79")).fail();
    expect(throttle.begin("10.0.195.79").allowed).toBe(false);
  });

  test("an attempt in flight is never forgotten, however many addresses come after it", () => {
    const { now } = clock();
    const throttle = new LoginThrottle(1, 15 * MINUTE, now, { maxClients: 10, siteFree: Number.POSITIVE_INFINITY });
    const held = allowed(throttle.begin("192.0.2.1"));
    for (let i = 0; i < 100; i++) allowed(throttle.begin(`198.51.100.${i}`)).fail();
    expect(throttle.begin("192.0.2.1").allowed).toBe(false);
    held.fail();
    expect(throttle.begin("192.0.2.1").allowed).toBe(false);
  });
});
