import { describe, expect, test } from "bun:test";
import { Lru } from "./lru.ts";

describe("Lru", () => {
  test("forgets the entry used least recently once it holds its maximum", () => {
    const lru = new Lru<string, number>(3);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("c", 3);
    // Reading "a" makes "b" the least recently used.
    expect(lru.get("a")).toBe(1);
    lru.set("d", 4);
    expect(lru.get("b")).toBeUndefined();
    expect([lru.get("a"), lru.get("c"), lru.get("d")]).toEqual([1, 3, 4]);
    expect(lru.size).toBe(3);
  });

  test("reading the newest entry again keeps the order the reads made", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    expect(lru.get("a")).toBe(1);
    // "b" is the least recently used, however often "a" was read.
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    // The entry set last counts as read last.
    lru.set("b", 2);
    expect(lru.get("c")).toBeUndefined();
  });

  test("setting a key it holds replaces its value without forgetting another", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("a", 10);
    expect([lru.get("a"), lru.get("b"), lru.size]).toEqual([10, 2, 2]);
  });

  test("clear empties it", () => {
    const lru = new Lru<string, boolean>(2);
    lru.set("a", false);
    lru.clear();
    expect([lru.get("a"), lru.size]).toEqual([undefined, 0]);
    lru.set("a", true);
    expect(lru.get("a")).toBe(true);
  });
});
