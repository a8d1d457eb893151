import { expect, test } from "bun:test";
import { chooseEncoding } from "./accept-encoding.ts";

const both = ["br", "gzip"] as const;

test.each([
  [null, "identity"],
  ["", "identity"],
  ["gzip, deflate, br", "br"],
  ["GZIP", "gzip"],
  ["Br", "br"],
  ["x-gzip", "gzip"],
  ["br;q=0, gzip", "gzip"],
  ["br;q=0.5, gzip;q=0.8", "gzip"],
  ["br;q=0.8, gzip;q=0.8", "br"],
  ["br;Q=0", "identity"],
  ["*", "br"],
  ["*;q=0.5, br;q=0", "gzip"],
  ["gzip;q=0, br;q=0", "identity"],
  ["gzip;q=0.1, identity", "identity"],
  ["deflate", "identity"],
  ["identity;q=0, gzip", "gzip"],
  ["identity;q=0, *", "br"],
  ["identity;q=0", null],
  ["*;q=0", null],
  ["br;q=0, gzip;q=0, identity;q=0", null],
  ["gzip;q=2", "identity"],
  ["gzip;q=abc, br", "br"],
  ["gzip ; q=0.5", "gzip"],
  [" , ,gzip,, ", "gzip"],
  ["\u0000gzip", "identity"],
] as const)("%p -> %p", (header, expected) => {
  expect(chooseEncoding(header, both)).toBe(expected);
});

test("only the codings held are offered", () => {
  expect(chooseEncoding("br", ["gzip"])).toBe("identity");
  expect(chooseEncoding("br, identity;q=0", ["gzip"])).toBeNull();
  expect(chooseEncoding("gzip, br", [])).toBe("identity");
});
