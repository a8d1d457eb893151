import { describe, expect, test } from "bun:test";
import { dropCarriedHeaders } from "./security.ts";

const answer = () => new Response("page", { headers: { "x-frame-options": "DENY", "referrer-policy": "no-referrer" } });

describe("dropCarriedHeaders", () => {
  test("empties the headers to set when the answer carries each with the same value", () => {
    const set = { headers: { "x-frame-options": "DENY", "referrer-policy": "no-referrer" } as Record<string, unknown> };
    dropCarriedHeaders(set, answer());
    expect(set.headers).toEqual({});
  });

  test("keeps them all when one is missing from the answer or differs", () => {
    const missing = { headers: { "x-frame-options": "DENY", "strict-transport-security": "max-age=1" } };
    dropCarriedHeaders(missing, answer());
    expect(Object.keys(missing.headers)).toEqual(["x-frame-options", "strict-transport-security"]);
    const differs = { headers: { "x-frame-options": "SAMEORIGIN" } };
    dropCarriedHeaders(differs, answer());
    expect(differs.headers).toEqual({ "x-frame-options": "SAMEORIGIN" });
  });

  test("with the answer's headers given, compares with those instead of reading the answer", () => {
    const carried = { "x-frame-options": "DENY", "referrer-policy": "no-referrer" };
    const same = { headers: { "x-frame-options": "DENY" } as Record<string, unknown> };
    dropCarriedHeaders(same, new Response("page"), carried);
    expect(same.headers).toEqual({});
    const differs = { headers: { "x-frame-options": "SAMEORIGIN", "referrer-policy": "no-referrer" } };
    dropCarriedHeaders(differs, new Response("page"), carried);
    expect(Object.keys(differs.headers)).toHaveLength(2);
    // A name that is some object's property but no header of the answer is not carried.
    const inherited = { headers: { constructor: "x" } as Record<string, unknown> };
    dropCarriedHeaders(inherited, new Response("page"), carried);
    expect(inherited.headers).toEqual({ constructor: "x" });
  });
});
