import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";

describe("security headers", () => {
  test.each(["/", "/healthz", "/api/settings", "/no-such-page", "/api/nope", "/favicon.svg"])("%s carries them", async (path) => {
    const { request } = testApp();
    const res = await request(path);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // No third-party origin anywhere but the two video players DECISIONS P18 names, as frames.
    const origins = [...csp.matchAll(/https?:\/\/[^\s;]+/g)].map((m) => m[0]);
    expect(origins).toEqual(["https://www.youtube-nocookie.com", "https://player.vimeo.com"]);
    expect(csp).toMatch(/frame-src 'self' https:\/\/www\.youtube-nocookie\.com https:\/\/player\.vimeo\.com;/);
    expect(csp).toMatch(/script-src 'self' 'sha256-[^']+';/);
    expect(res.headers.get("x-powered-by")).toBeNull();
  });
});

// API scenario table (method, path, body, expected status, must / must-not contain).
const scenarios: { name: string; method: string; path: string; body?: string; type?: string; status: number; has?: string[]; hasNot?: string[] }[] = [
  { name: "settings", method: "GET", path: "/api/settings", status: 200, has: ['"brandName":"Cam Guide"'] },
  { name: "site page", method: "GET", path: "/api/pages/terms", status: 200, has: ['"title":"Terms of Service"', "Cam Guide"], hasNot: ["{{brand}}"] },
  { name: "unknown site page", method: "GET", path: "/api/pages/nope", status: 404, has: ['"error":"No such page."'] },
  { name: "unknown GET endpoint", method: "GET", path: "/api/nope", status: 404, has: ['"error":"No such API endpoint."'] },
  { name: "unknown POST endpoint", method: "POST", path: "/api/nope", body: "{}", status: 404, has: ['"error"'] },
  { name: "malformed JSON to an unknown endpoint", method: "POST", path: "/api/nothing/here", body: '{"archetype":', status: 404, has: ['"error"'], hasNot: ["at ", "stack"] },
  { name: "malformed JSON to a GET-only endpoint", method: "POST", path: "/api/settings", body: "{oops", status: 404, hasNot: ["stack"] },
  { name: "DELETE on a page path", method: "DELETE", path: "/", status: 404 },
  { name: "benchmark ceiling is off unless CAM_GUIDE_BENCH=1", method: "GET", path: "/__bench/ceiling?path=/", status: 404, has: ["404 Page Not Found"] },
];

describe("API scenarios", () => {
  test.each(scenarios)("$name: $method $path -> $status", async (s) => {
    const { request } = testApp();
    const res = await request(s.path, {
      method: s.method,
      body: s.body,
      headers: s.body ? { "content-type": s.type ?? "application/json" } : {},
    });
    expect(res.status).toBe(s.status);
    const text = await res.text();
    if (s.path.startsWith("/api/")) expect(res.headers.get("content-type")).toContain("application/json");
    for (const needle of s.has ?? []) expect(text).toContain(needle);
    for (const needle of s.hasNot ?? []) expect(text).not.toContain(needle);
  });
});

describe("healthz", () => {
  test("answers ok after a real query", async () => {
    const { request } = testApp();
    const res = await request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  test("answers 503 when the database cannot be used", async () => {
    const { request, database } = testApp();
    database.close();
    const res = await request("/healthz");
    expect(res.status).toBe(503);
    expect((await res.json()).status).toBe("unavailable");
  });
});

describe("pages", () => {
  test("home: content, title and meta in the first HTML", async () => {
    const { request } = testApp();
    const res = await request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toStartWith("<!DOCTYPE html>");
    expect(html).toContain("Find your cam model alter ego");
    expect(html).toContain("<title>Discover Your Webcam Alter Ego | Cam Guide</title>");
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
    // The query cache travels with the page, so the client does not fetch again.
    expect(html).toContain('"queryKey":["/api/settings"]');
  });

  test.each(["/", "/terms", "/nope"])("%s has no inline script the CSP would block", async (path) => {
    const { request } = testApp();
    const html = await (await request(path)).text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/g)];
    // Only the theme script, which the CSP allows by its hash.
    expect(inline).toHaveLength(1);
    expect(html).toContain('localStorage.getItem("theme")');
  });

  test.each([
    ["/learn-more", "About the free cam model course"],
    ["/terms", "Terms of Service"],
    ["/privacy", "Privacy Policy"],
  ])("%s answers 200 with its content", async (path, heading) => {
    const { request } = testApp();
    const res = await request(path);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<h1>${heading}</h1>`);
    expect(html).not.toContain("{{brand}}");
  });

  test.each(["/nope", "/quizzes", "/learning", "/blogs", "/administrator", "/a/b/c"])("%s answers the 404 page", async (path) => {
    const { request } = testApp();
    const res = await request(path);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("404 Page Not Found");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });

  test.each(["/admin", "/admin-login"])("%s is server-rendered, marked noindex and holds no admin data", async (path) => {
    const { request } = testApp();
    const res = await request(path);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain('<link rel="canonical"');
    expect(html).not.toContain("/api/admin/");
  });

  test("/course-complete is a real permanent redirect to /learn/complete (DECISIONS P6)", async () => {
    const { request } = testApp();
    const res = await request("/course-complete?x=1");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/learn/complete");
  });

  test("the brand comes from the site settings", async () => {
    const { request, database } = testApp();
    database.sqlite.run("UPDATE site_settings SET brand_name = 'Velvet Start' WHERE id = 1");
    const html = await (await request("/terms")).text();
    expect(html).toContain("<title>Terms of Service | Velvet Start</title>");
    expect(html).toContain("Velvet Start");
  });

  test("a failure while rendering answers the HTML error page with 500 and no details", async () => {
    const { request, database, logger } = testApp();
    database.sqlite.run("DROP TABLE site_pages");
    const res = await request("/terms");
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain("Something went wrong");
    expect(html).not.toContain("site_pages");
    expect(logger.lines.join("\n")).toContain("site_pages");
  });

  test("an API failure answers a generic 500 JSON, the details only in the log", async () => {
    const { request, database, logger } = testApp();
    database.sqlite.run("DROP TABLE site_pages");
    const res = await request("/api/pages/terms");
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({ error: "Something went wrong on our side. Please try again." });
    expect(logger.lines.join("\n")).toContain("site_pages");
  });
});

describe("static assets", () => {
  test("hashed client files are immutable, compressed and revalidate with ETag", async () => {
    const { request } = testApp();
    const html = await (await request("/")).text();
    const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!;
    const res = await request(script, { headers: { "accept-encoding": "gzip, br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    const gz = await request(script, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-type")).toContain("text/javascript");
    const etag = res.headers.get("etag")!;
    const again = await request(script, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  test("an unknown asset is a 404", async () => {
    const { request } = testApp();
    expect((await request("/assets/nope.js")).status).toBe(404);
  });
});
