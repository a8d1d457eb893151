import { describe, expect, test } from "bun:test";
import { within } from "@testing-library/dom";
import { ARCHETYPES } from "#shared/features/quiz/constants.ts";
import { shareImagePath } from "#shared/features/quiz/share.ts";
import { siteApp } from "#tests/support/app.ts";
import { createSitePage } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";
import { runScenarios, type ScenarioResponse } from "#tests/support/scenario.ts";

function checkCsp(res: ScenarioResponse) {
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  // No third-party origin anywhere but the two video players offers may embed, as frames.
  const origins = [...csp.matchAll(/https?:\/\/[^\s;]+/g)].map((m) => m[0]);
  expect(origins).toEqual(["https://www.youtube-nocookie.com", "https://player.vimeo.com"]);
  expect(csp).toMatch(/frame-src 'self' https:\/\/www\.youtube-nocookie\.com https:\/\/player\.vimeo\.com;/);
  expect(csp).toMatch(/script-src 'self' 'sha256-[^']+';/);
}

runScenarios(
  "security headers",
  (
    [
      ["/", 200],
      ["/healthz", 200],
      ["/api/settings", 200],
      ["/no-such-page", 404],
      ["/api/nope", 404],
      ["/favicon.svg", 200],
    ] as const
  ).map(([path, status]) => ({
    name: `${path} carries them`,
    path,
    status,
    responseHeaders: {
      "x-content-type-options": /^nosniff$/,
      "referrer-policy": /^strict-origin-when-cross-origin$/,
      "x-powered-by": null,
    },
    check: checkCsp,
  })),
);

const json = { "content-type": "application/json" };

runScenarios("API scenarios", [
  {
    name: "settings",
    path: "/api/settings",
    status: 200,
    responseHeaders: json,
    contains: ['"brandName":"Cam Guide"'],
  },
  {
    name: "site page",
    path: "/api/pages/terms",
    setup: ({ db }) =>
      createSitePage(db, {
        slug: "terms",
        title: "Terms of Service",
        body: "<p>{{brand}} is run by its operator.</p>",
      }),
    status: 200,
    responseHeaders: json,
    contains: ['"title":"Terms of Service"', "Cam Guide"],
    notContains: ["{{brand}}"],
  },
  {
    name: "unknown site page",
    path: "/api/pages/nope",
    status: 404,
    responseHeaders: json,
    contains: ['"error":"No such page."'],
  },
  {
    name: "unknown GET endpoint",
    path: "/api/nope",
    status: 404,
    responseHeaders: json,
    contains: ['"error":"No such API endpoint."'],
  },
  {
    name: "unknown POST endpoint",
    method: "POST",
    path: "/api/nope",
    body: "{}",
    status: 404,
    responseHeaders: json,
    contains: ['"error"'],
  },
  {
    name: "malformed JSON to an unknown endpoint",
    method: "POST",
    path: "/api/nothing/here",
    body: '{"archetype":',
    status: 404,
    responseHeaders: json,
    contains: ['"error"'],
    notContains: ["at ", "stack"],
  },
  {
    name: "malformed JSON to a GET-only endpoint",
    method: "POST",
    path: "/api/settings",
    body: "{oops",
    status: 404,
    responseHeaders: json,
    notContains: ["stack"],
  },
  { name: "DELETE on a page path", method: "DELETE", path: "/", status: 404 },
  {
    name: "benchmark ceiling is off unless CAM_GUIDE_BENCH=1",
    path: "/__bench/ceiling?path=/",
    status: 404,
    contains: ["404 Page Not Found"],
  },
  { name: "healthz answers ok after a real query", path: "/healthz", status: 200, json: { status: "ok" } },
  {
    name: "healthz answers 503 when the database cannot be used",
    path: "/healthz",
    setup: ({ testDb }) => testDb.close(),
    status: 503,
    contains: { status: "unavailable" },
  },
  {
    name: "an API failure answers a generic 500 JSON, the details only in the log",
    path: "/api/pages/terms",
    setup: ({ testDb }) => testDb.rows("DROP TABLE site_pages"),
    status: 500,
    json: { error: "Something went wrong on our side. Please try again." },
    check: (_, { logger }) => expect(logger.lines.join("\n")).toContain("site_pages"),
  },
]);

describe("pages", () => {
  test("home: content, title and meta in the first HTML", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.html).toStartWith("<!DOCTYPE html>");
    expect(page.screen.getByRole("heading", { level: 1, name: "Find your cam model alter ego" })).toBeTruthy();
    expect(page.title).toBe("Discover Your Webcam Alter Ego | Cam Guide");
    expect(page.meta("description")).toMatch(/^.{50,}$/);
    // The query cache travels with the page, so the client does not fetch again.
    expect(page.html).toContain('"queryKey":["/api/settings"]');
  });

  test.each(["/", "/terms", "/nope"])("%s has no inline script the CSP would block", async (path) => {
    const { request, db } = await siteApp();
    await createSitePage(db, { slug: "terms", title: "Terms of Service" });
    const { document } = await renderPage(request, path);
    const inline = [...document.querySelectorAll("script:not([src])")].filter(
      (s) => s.getAttribute("type") !== "application/json",
    );
    // Only the theme script, which the CSP allows by its hash.
    expect(inline).toHaveLength(1);
    expect(inline[0]!.textContent).toContain('localStorage.getItem("theme")');
  });

  test.each([
    ["/learn-more", "About the free cam model course"],
    ["/terms", "Terms of Service"],
    ["/privacy", "Privacy Policy"],
  ])("%s answers 200 with its content", async (path, heading) => {
    const { request, db } = await siteApp();
    await createSitePage(db, { slug: "terms", title: "Terms of Service", body: "<p>{{brand}} sets these terms.</p>" });
    await createSitePage(db, { slug: "privacy", title: "Privacy Policy", body: "<p>{{brand}} keeps little.</p>" });
    const page = await renderPage(request, path);
    expect(page.status).toBe(200);
    expect(page.screen.getByRole("heading", { level: 1 }).textContent).toBe(heading);
    expect(page.html).not.toContain("{{brand}}");
  });

  test.each(["/nope", "/quizzes", "/learning", "/blogs", "/administrator", "/a/b/c"])(
    "%s answers the 404 page",
    async (path) => {
      const { request } = await siteApp();
      const page = await renderPage(request, path);
      expect(page.status).toBe(404);
      expect(page.screen.getByRole("heading", { name: "404 Page Not Found" })).toBeTruthy();
      expect(page.meta("robots")).toBe("noindex");
    },
  );

  test("the 404 page offers the main destinations and a blog search that works without scripts", async () => {
    const { request } = await siteApp();
    const page = await renderPage(request, "/no-such-page");
    expect(page.status).toBe(404);
    const main = page.main();
    expect(main.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeTruthy();
    expect(main.getByText(/the page may have moved/)).toBeTruthy();
    // Nothing meant for the site's developers.
    expect(page.text).not.toMatch(/router/i);
    const places = within(main.getByRole("navigation", { name: "Where to go from here" }));
    expect(places.getAllByRole("link").map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Take the free quiz", "/quiz"],
      ["Start the free course", "/learn"],
      ["Read the blog", "/blog"],
    ]);
    const box = main.getByRole("searchbox", { name: "Search the blog" });
    expect(box.getAttribute("name")).toBe("q");
    const form = box.closest("form");
    expect([form?.getAttribute("method"), form?.getAttribute("action")]).toEqual(["get", "/blog"]);
    expect(
      within(form as HTMLElement)
        .getByRole("button", { name: "Search" })
        .getAttribute("type"),
    ).toBe("submit");
    expect(main.getByRole("button", { name: "Back to the home page" }).getAttribute("href")).toBe("/");
  });

  test.each(["/admin", "/admin-login"])(
    "%s is server-rendered, marked noindex and holds no admin data",
    async (path) => {
      const { request } = await siteApp();
      const page = await renderPage(request, path);
      expect(page.status).toBe(200);
      expect(page.meta("robots")).toBe("noindex");
      expect(page.link("canonical")).toBeNull();
      expect(page.html).not.toContain("/api/admin/");
    },
  );

  test("/course-complete is a real permanent redirect to /learn/complete", async () => {
    const { request } = await siteApp();
    const res = await request("/course-complete?x=1");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/learn/complete");
  });

  test("the brand comes from the site settings", async () => {
    const { request, db } = await siteApp({ settings: { brandName: "Velvet Start" } });
    await createSitePage(db, { slug: "terms", title: "Terms of Service" });
    const page = await renderPage(request, "/terms");
    expect(page.title).toBe("Terms of Service | Velvet Start");
    expect(page.screen.getByRole("link", { name: /Velvet Start/ }).getAttribute("href")).toBe("/");
  });

  test("a failure while rendering answers the HTML error page with 500 and no details", async () => {
    const { request, sqlite, logger } = await siteApp();
    sqlite.run("DROP TABLE site_pages");
    const page = await renderPage(request, "/terms");
    expect(page.status).toBe(500);
    expect(page.screen.getByRole("heading", { name: /Something went wrong/ })).toBeTruthy();
    expect(page.html).not.toContain("site_pages");
    expect(logger.lines.join("\n")).toContain("site_pages");
  });
});

describe("static assets", () => {
  test("hashed client files are immutable, compressed and revalidate with ETag", async () => {
    const { request } = await siteApp();
    const { document } = await renderPage(request, "/");
    const script = document.querySelector('script[type="module"][src]')!.getAttribute("src")!;
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
    const { request } = await siteApp();
    expect((await request("/assets/nope.js")).status).toBe(404);
  });

  test("each archetype's social card is a PNG, cached for an hour (its name never changes)", async () => {
    const { request } = await siteApp();
    for (const archetype of ARCHETYPES) {
      const res = await request(shareImagePath(archetype));
      expect([archetype, res.status, res.headers.get("content-type")]).toEqual([archetype, 200, "image/png"]);
      expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    }
    const missing = await request("/social/nobody.png");
    expect([missing.status, missing.headers.get("content-type")]).toEqual([404, "text/plain; charset=utf-8"]);
  });
});
