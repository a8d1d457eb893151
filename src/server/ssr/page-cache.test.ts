import { describe, expect, test } from "bun:test";
import { siteApp } from "#tests/support/app.ts";
import { pageOf } from "#tests/support/page.ts";
import { rawRequest } from "#tests/support/raw-http.ts";
import { scenarioApp } from "#tests/support/scenario.ts";
import { PageCache } from "./page-cache.ts";

describe("render cache", () => {
  test("a page the same for everyone is rendered once, then served from memory with an ETag", async () => {
    const { request } = await siteApp();
    const first = await request("/learn/3");
    expect(first.headers.get("x-cache")).toBe("miss");
    const body = await first.text();
    const second = await request("/learn/3");
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(await second.text()).toBe(body);
    const etag = second.headers.get("etag")!;
    expect(etag).toMatch(/^"[a-z0-9]+"$/);
    const conditional = await request("/learn/3", { headers: { "if-none-match": etag } });
    expect(conditional.status).toBe(304);
    expect(await conditional.text()).toBe("");
    // Compressed once, as the browser accepts.
    const br = await request("/learn/3", { headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    const { brotliDecompressSync } = await import("node:zlib");
    expect(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())).toString()).toBe(body);
    // Security headers are still there on cached answers.
    expect(second.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  test("a cached answer carries every header the rendered one did, once each, with the same values", async () => {
    const { request } = await siteApp();
    const headers = (res: Response) =>
      [...res.headers.entries()].filter(([name]) => !["x-cache", "date", "content-length"].includes(name)).sort();
    const miss = await request("/learn/4");
    const hit = await request("/learn/4");
    expect(hit.headers.get("x-cache")).toBe("hit");
    expect(headers(hit)).toEqual(headers(miss));
    expect(headers(hit).map(([name]) => name)).toContain("content-security-policy");
    expect(headers(hit).map(([name]) => name)).toContain("permissions-policy");
    const notModified = await request("/learn/4", { headers: { "if-none-match": hit.headers.get("etag")! } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("content-security-policy")).toBe(hit.headers.get("content-security-policy"));
  });

  test("pages that are not the same for everyone, or not found, are never cached", async () => {
    const { request } = await siteApp();
    for (const path of ["/admin", "/admin-login", "/nope", "/quiz/result?id=missing"]) {
      await request(path);
      expect([path, (await request(path)).headers.get("x-cache")]).toEqual([path, null]);
    }
  });

  test("an admin change drops the cache: the next visitor sees it at once", async () => {
    const api = await scenarioApp({ admin: true });
    expect(pageOf(await (await api.request("/")).text()).title).toEndWith("| Cam Guide");
    expect((await api.request("/")).headers.get("x-cache")).toBe("hit");
    const settings = (await api.check({ who: "admin", path: "/api/admin/settings", status: 200 })).json<
      Record<string, unknown>
    >();
    await api.check({
      who: "admin",
      method: "PUT",
      path: "/api/admin/settings",
      body: { ...settings, brandName: "Fresh Brand" },
      status: 200,
    });
    const after = await api.request("/");
    expect(after.headers.get("x-cache")).toBe("miss");
    expect(pageOf(await after.text()).title).toEndWith("| Fresh Brand");
  });

  const page = (n: number) => ({ body: new Uint8Array([n]), status: 200, headers: [], etag: `"${n}"` });

  test("the cache is bounded and forgets the least recently used page", () => {
    const cache = new PageCache({ shared: 2 });
    const now = cache.generation;
    cache.set("shared", "/a", page(1), now);
    cache.set("shared", "/b", page(2), now);
    cache.get("shared", "/a");
    cache.set("shared", "/c", page(3), now);
    const etags = ["/a", "/b", "/c"].map((key) => cache.get("shared", key)?.etag);
    expect(etags).toEqual(['"1"', undefined, '"3"']);
    expect(cache.sizes).toEqual({ shared: 2, visitor: 0 });
  });

  test("pages at visitors' addresses have their own bound and never push the site's pages out", () => {
    const cache = new PageCache({ shared: 3, visitor: 2 });
    cache.set("shared", "/", page(0), cache.generation);
    for (let n = 1; n <= 50; n++) cache.set("visitor", `/result?id=${n}`, page(n), cache.generation);
    expect(cache.sizes).toEqual({ shared: 1, visitor: 2 });
    expect(cache.get("shared", "/")?.etag).toBe('"0"');
    expect(cache.get("visitor", "/result?id=50")?.etag).toBe('"50"');
    // One key in one partition does not answer for the other.
    expect(cache.get("shared", "/result?id=50")).toBeUndefined();
  });

  test("a page rendered before a clear() is not kept", () => {
    const cache = new PageCache();
    const started = cache.generation;
    cache.clear();
    expect(cache.set("shared", "/", page(1), started)).toBe(false);
    expect(cache.get("shared", "/")).toBeUndefined();
    expect(cache.set("shared", "/", page(2), cache.generation)).toBe(true);
    expect(cache.get("shared", "/")?.etag).toBe('"2"');
  });
});

describe("concurrent first requests", () => {
  test("fifty requests for an uncached page share one render and all get the page", async () => {
    const { request } = await siteApp();
    const answers = await Promise.all(Array.from({ length: 50 }, () => request("/learn/5")));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(bodies).size).toBe(1);
    expect(answers.filter((r) => r.headers.get("x-cache") === "miss").length).toBe(50);
    expect((await request("/learn/5")).headers.get("x-cache")).toBe("hit");
  });

  test("concurrent requests for a missing result each get the 404 page", async () => {
    const { request } = await siteApp();
    const answers = await Promise.all(Array.from({ length: 10 }, () => request("/quiz/result?id=missing-one")));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(404));
    for (const body of await Promise.all(answers.map((r) => r.text()))) {
      expect(pageOf(body).main().getByRole("heading", { name: "This result is no longer here" })).toBeTruthy();
    }
  });
});

describe("a cached page's answer", () => {
  test("in each coding, over the network: its own length and coding, the cache's headers once, and a 304 for its etag", async () => {
    const t = await siteApp();
    const server = t.app.listen({ port: 0, hostname: "127.0.0.1" }).server!;
    try {
      const url = `http://127.0.0.1:${server.port}/`;
      await fetch(url);
      const etags = new Map<string, string>();
      for (const coding of ["identity", "gzip", "br"]) {
        const res = await fetch(url, { headers: { "accept-encoding": coding }, decompress: false });
        const body = new Uint8Array(await res.arrayBuffer());
        expect([coding, res.status, res.headers.get("x-cache")]).toEqual([coding, 200, "hit"]);
        expect(res.headers.get("content-encoding")).toBe(coding === "identity" ? null : coding);
        expect(Number(res.headers.get("content-length") ?? body.length)).toBe(body.length);
        expect(res.headers.get("vary")).toBe("accept-encoding");
        etags.set(coding, res.headers.get("etag")!);
      }
      // Each coding is a representation of its own: a tag of its own, and a 304 for it alone.
      expect(new Set(etags.values()).size).toBe(3);
      for (const [coding, tag] of etags) {
        const ask = (ifNoneMatch: string) =>
          fetch(url, { headers: { "accept-encoding": coding, "if-none-match": ifNoneMatch }, decompress: false });
        for (const form of [tag, `W/${tag}`, `"other", ${tag}`, "*"])
          expect([coding, form, (await ask(form)).status]).toEqual([coding, form, 304]);
        const other = [...etags.values()].find((t) => t !== tag)!;
        expect([coding, (await ask(other)).status]).toEqual([coding, 200]);
      }
      // Read as a plain HTTP/1.1 client reads: to the end the length says, then the close.
      for (const coding of ["identity", "gzip", "br"]) {
        const raw = await rawRequest(
          server.port!,
          `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: ${coding}\r\nConnection: close\r\n\r\n`,
        );
        // A length left from another coding would leave the client waiting, and this fails.
        expect([coding, raw.status, raw.headers["content-encoding"] ?? "identity"]).toEqual([coding, 200, coding]);
      }
    } finally {
      server.stop(true);
    }
  });
});
