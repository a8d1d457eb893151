import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { routedAsWritten, SHORT_HOST_MESSAGE } from "./host.ts";

describe("a Host too short for the router to find the path", () => {
  test.each(["x", "1", "ab", "abc", "a.b", "x:1", "[::]", "guide.example.com", "127.0.0.1:3000"])("%s", (host) => {
    for (const path of ["/", "/zz/api/admin/links", "/healthz"])
      expect([path, routedAsWritten(`http://${host}${path}`)]).toEqual([path, `http://${host}`.length >= 11]);
  });

  test("https (a request made in process) is read right from three characters on", () => {
    expect(routedAsWritten("https://abc/zz/api/admin/links")).toBe(true);
    expect(routedAsWritten("https://ab/zz/api/admin/links")).toBe(false);
  });

  test("in the app, a short host is a 400 on every path, the admin's included; a longer one is routed", async () => {
    const { app } = testApp();
    const ask = (url: string, host: string) => app.handle(new Request(url, { headers: { host } }));
    for (const path of ["/zz/api/admin/links", "/a/api/admin/links", "/api/admin/links", "/healthz", "/"]) {
      const res = await ask(`http://x${path}`, "x");
      expect([path, res.status, await res.text()]).toEqual([path, 400, SHORT_HOST_MESSAGE]);
    }
    expect((await ask("http://abcd/zz/api/admin/links", "abcd")).status).toBe(404);
    expect((await ask("http://abcd/api/admin/links", "abcd")).status).toBe(401);
    expect((await ask("http://abcd/healthz", "abcd")).status).toBe(200);
  });
});
