import { describe, expect, test } from "bun:test";
import { ClientSlots, KeptConnections } from "./connection-limits.ts";

describe("open requests per client", () => {
  test("a client gets its limit, then is refused until one is answered; others are not touched", () => {
    const slots = new ClientSlots(3);
    expect([1, 2, 3, 4].map(() => slots.take("198.51.100.7"))).toEqual([true, true, true, false]);
    expect(slots.take("203.0.113.9")).toBe(true);
    slots.release("198.51.100.7");
    expect(slots.take("198.51.100.7")).toBe(true);
    expect(slots.count("198.51.100.7")).toBe(3);
  });

  test("a client with nothing open is forgotten (memory follows the open requests)", () => {
    const slots = new ClientSlots(3);
    for (let i = 0; i < 1000; i++) {
      slots.take(`10.0.${i >> 8}.${i & 255}`);
      slots.release(`10.0.${i >> 8}.${i & 255}`);
    }
    expect(slots.size).toBe(0);
    // A release too many never goes below nothing.
    slots.release("10.0.0.1");
    expect(slots.count("10.0.0.1")).toBe(0);
  });

  test("closing waits for the requests already open, and marks the ledger closed at once", async () => {
    const slots = new ClientSlots(3);
    slots.take("198.51.100.7");
    let drained = false;
    const closing = slots.closeAndDrain(30_000).then(() => {
      drained = true;
    });
    expect(slots.closed).toBe(true);
    await Bun.sleep(30);
    expect(drained).toBe(false);
    slots.release("198.51.100.7");
    await closing;
    expect(drained).toBe(true);
  });
});

describe("connections kept open per peer", () => {
  function ledger(max = 3) {
    let now = 0;
    const kept = new KeptConnections(35_000, max, () => now);
    return { kept, advance: (ms: number) => (now += ms) };
  }

  test("past the limit a new connection is told to close; the ones already open keep going", () => {
    const { kept } = ledger();
    for (const port of [5001, 5002, 5003]) {
      expect(kept.begin("198.51.100.7", port)).toBe(true);
      kept.end("198.51.100.7", port, false);
    }
    expect(kept.begin("198.51.100.7", 5004)).toBe(false);
    // A second request on a connection it already holds.
    expect(kept.begin("198.51.100.7", 5002)).toBe(true);
    kept.end("198.51.100.7", 5002, false);
    expect(kept.count("198.51.100.7")).toBe(3);
    expect(kept.begin("203.0.113.9", 5004)).toBe(true);
  });

  test("at its limit, a peer's connection left idle half a second makes room for a new one; a busy one never does", () => {
    const { kept, advance } = ledger();
    for (const port of [5001, 5002, 5003]) kept.begin("198.51.100.7", port);
    kept.end("198.51.100.7", 5001, false);
    advance(499);
    expect(kept.begin("198.51.100.7", 5004)).toBe(false);
    advance(1);
    // 5001 has been idle half a second: the new connection takes its place, once.
    expect(kept.begin("198.51.100.7", 5005)).toBe(true);
    expect(kept.begin("198.51.100.7", 5006)).toBe(false);
    // 5002 and 5003 are still answering, however long that takes.
    advance(60_000);
    expect(kept.begin("198.51.100.7", 5007)).toBe(false);
    expect(kept.count("198.51.100.7")).toBe(3);
  });

  test("a connection taken as let go that sends again was still open: its answer closes it", () => {
    const { kept, advance } = ledger();
    const peer = "198.51.100.7";
    for (const port of [6001, 6002, 6003]) {
      kept.begin(peer, port);
      kept.end(peer, port, false);
    }
    advance(1_000);
    // New connections take the places of the idle ones...
    for (const port of [6004, 6005, 6006]) expect(kept.begin(peer, port)).toBe(true);
    // ...and the old ones, used again, are told to close: the peer never uses more than three.
    for (const port of [6001, 6002, 6003]) expect(kept.begin(peer, port)).toBe(false);
    expect(kept.count(peer)).toBe(3);
  });

  test("a connection is counted until Bun has closed it for idleness, or until an answer closed it", () => {
    const { kept, advance } = ledger();
    for (const port of [5001, 5002, 5003]) kept.begin("198.51.100.7", port);
    kept.end("198.51.100.7", 5001, true);
    expect(kept.count("198.51.100.7")).toBe(2);
    kept.end("198.51.100.7", 5002, false);
    advance(34_000);
    expect(kept.count("198.51.100.7")).toBe(2);
    advance(2_000);
    // 5002 went idle 36 s ago; 5003 is still answering, however long that takes.
    expect(kept.count("198.51.100.7")).toBe(1);
    kept.end("198.51.100.7", 5003, false);
    advance(36_000);
    kept.sweep();
    expect(kept.count("198.51.100.7")).toBe(0);
  });

  test("a connection that was told to close is not followed", () => {
    const { kept } = ledger(1);
    expect(kept.begin("198.51.100.7", 5001)).toBe(true);
    expect(kept.begin("198.51.100.7", 5002)).toBe(false);
    kept.end("198.51.100.7", 5002, true);
    expect(kept.count("198.51.100.7")).toBe(1);
  });
});
