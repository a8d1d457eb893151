import { expect, test } from "bun:test";
import { siteLocation } from "./location.ts";

test.each([
  ["/learn/1", "/learn/1"],
  ["/learn/1?topic=2#x", "/learn/1?topic=2#x"],
  ["/blog?category=ü", "/blog?category=%C3%BC"],
  ["/路径/ü?q=路#ö", "/%E8%B7%AF%E5%BE%84/%C3%BC?q=%E8%B7%AF#%C3%B6"],
  ["//evil.example/x", "/evil.example/x"],
  ["/\\evil.example/x", "/evil.example/x"],
  ["\\\\evil.example", "/evil.example"],
  ["/.//evil.example", "/evil.example"],
  ["/a/..//evil.example", "/evil.example"],
  ["https://evil.example/", "/"],
  ["/a\r\nSet-Cookie: x=1", "/aSet-Cookie:%20x=1"],
  ["/\u202Eexe.txt", "/%E2%80%AEexe.txt"],
])("%s is sent as %s", (to, location) => {
  expect(siteLocation(to)).toBe(location);
  expect(location).toMatch(/^\/(?![/\\])[\x21-\x7E]*$/);
});
