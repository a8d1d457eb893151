import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { validHost } from "./host.ts";

const request = (url: string, host?: string) => new Request(url, host ? { headers: { host } } : {});

describe("the Host and where the router finds the path", () => {
  test.each(["x", "1", "ab", "a.b", "x:1", "[::1]", "guide.example.com", "127.0.0.1:3000"])(
    "a request to %s is routed by the path it carries",
    (host) => {
      expect(validHost(request(`http://${host}/zz/api/admin/links`, host))).toBe(true);
    },
  );

  test("a URL whose path does not start right after http:// and the host is refused", () => {
    expect(validHost(request("https://guide.example.com/api/admin/links"))).toBe(false);
  });

  test("in the app, a one-letter host reaches no admin route through a longer path", async () => {
    const { app } = testApp();
    for (const path of ["/zz/api/admin/links", "/a/api/admin/links", "/zzz/api/admin/links"]) {
      const res = await app.handle(request(`http://x${path}`, "x"));
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await app.handle(request("http://x/api/admin/links", "x"))).status).toBe(401);
    expect((await app.handle(request("http://x/healthz", "x"))).status).toBe(200);
  });
});
