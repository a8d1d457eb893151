import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { within } from "@testing-library/dom";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { applyMigrations, openDatabase } from "#server/db/client.ts";
import { content } from "#server/db/content.ts";
import { CLAIM_DEFAULTS } from "#server/features/settings/table.ts";
import { resourcePath } from "#server/resources.ts";
import { ADMIN, adminApp } from "#tests/support/admin.ts";
import { settingsInput } from "#tests/support/admin-inputs.ts";
import { HIDDEN_CHARACTERS } from "#tests/support/hostile-destinations.ts";
import { renderPage } from "#tests/support/page.ts";
import { runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";
import { readSitemap } from "#tests/support/sitemap.ts";

const settings = settingsInput();
/** A request from this site without the session: refused, and nothing changes. */
const signedOut = {
  headers: { origin: "http://localhost" },
  status: 401,
  json: { error: "Sign in as the admin to continue." },
  unchanged: true,
} satisfies Partial<Scenario>;

runScenarios("settings admin API without the session or from another site", [
  {
    name: "read settings: 401",
    path: "/api/admin/settings",
    ...signedOut,
  },
  {
    name: "update settings: 401, nothing changes",
    method: "PUT",
    path: "/api/admin/settings",
    body: settings,
    ...signedOut,
  },
  {
    name: "update settings from a foreign Origin with the session: 403, nothing changes",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: settings,
    headers: { origin: "https://evil.example" },
    status: 403,
    unchanged: true,
  },
  {
    name: "update settings marked cross-site with the session: 403, nothing changes",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: settings,

    headers: { origin: null, "sec-fetch-site": "cross-site" },
    status: 403,
    unchanged: true,
  },
  {
    name: "a banner platform other than a or b: 422",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: { ...settings, bannerPlatform: "c" },
    status: 422,
    unchanged: true,
  },
  ...(
    [
      [
        "incomeFigure",
        20,
        "The income figure must be plain text of at most 20 characters, with no control or invisible characters (leave it empty to hide it)",
      ],
      [
        "modelsHelpedFigure",
        20,
        "The models-helped figure must be plain text of at most 20 characters, with no control or invisible characters (leave it empty to hide it)",
      ],
      [
        "testimonialQuote",
        600,
        "The testimonial must be plain text of at most 600 characters, with no control or invisible characters (leave it empty to hide it)",
      ],
      [
        "testimonialAttribution",
        100,
        "The testimonial's author must be plain text of at most 100 characters, with no control or invisible characters (leave it empty to hide it)",
      ],
      [
        "bannerClaim",
        200,
        "The banner claim must be plain text of at most 200 characters, with no control or invisible characters (leave it empty to hide it)",
      ],
    ] as const
  ).map(([field, max, message]) => ({
    name: `${field} longer than ${max} characters: 422 at the field, nothing changes`,
    who: "admin" as const,
    method: "PUT" as const,
    path: "/api/admin/settings",
    body: { ...settings, [field]: "x".repeat(max + 1) },
    status: 422,
    check: (res: { json: <T>() => T }) =>
      expect(res.json<{ details: unknown[] }>().details).toEqual([{ field, message }]),
    unchanged: true as const,
  })),
  // The one rule a link's destination follows too (src/shared/invisible.ts), the character named.
  ...["\t", ...HIDDEN_CHARACTERS].map((character) => {
    const name = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    return {
      name: `a claim with the invisible or control character ${name}: 422 naming it, nothing changes`,
      who: "admin" as const,
      method: "PUT" as const,
      path: "/api/admin/settings",
      body: {
        ...settings,
        testimonialAttribution: `Dana${character}, Cosplay Babe archetype`,
        disclosureWording: { note: `Some links${character} pay us` },
      },
      status: 422,
      check: (res: { json: <T>() => T }) =>
        expect(res.json<{ details: { field: string; message: string }[] }>().details).toEqual([
          { field: "testimonialAttribution", message: expect.stringContaining(name) },
          { field: "disclosureWording.note", message: expect.stringContaining(name) },
        ]),
      unchanged: true as const,
    };
  }),
  {
    name: "a claim that is not text: 422",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: { ...settings, bannerClaim: null },
    status: 422,
    unchanged: true,
  },
  {
    name: "settings without the claims: 422",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: {
      brandName: settings.brandName,
      platformA: settings.platformA,
      platformB: settings.platformB,
      bannerPlatform: settings.bannerPlatform,
    },
    status: 422,
    unchanged: true,
  },
  // A graduation gift is offered whole or not at all, and its address is a web address.
  ...(
    [
      [{ giftDiscountPartner: "" }, "giftDiscountPartner", "Say where the discount code works, or clear the code"],
      [
        { giftDiscountPercent: null },
        "giftDiscountPercent",
        "Enter the percentage the code takes off, or clear the code",
      ],
      [{ giftDiscountPercent: 95 }, "giftDiscountPercent", "The discount is a whole percentage from 1 to 90"],
      [
        { giftDiscountCode: "GRAD 15" },
        "giftDiscountCode",
        "The discount code takes letters, digits, - and _ (at most 40), or leave it empty to hide the gift",
      ],
      [
        { communityUrl: "javascript:alert(1)" },
        "communityUrl",
        "The community's address starts with https:// (or leave it empty to hide the gift)",
      ],
    ] as const
  ).map(([change, field, message]) => ({
    name: `a graduation gift with ${JSON.stringify(change)}: 422 at ${field}, nothing changes`,
    who: "admin" as const,
    method: "PUT" as const,
    path: "/api/admin/settings",
    body: { ...settings, ...change },
    status: 422,
    check: (res: { json: <T>() => T }) =>
      expect(res.json<{ details: unknown[] }>().details).toEqual([{ field, message }]),
    unchanged: true as const,
  })),
  {
    name: "a platform without a name: 422",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: { ...settings, platformA: { name: "", url: "x" } },
    status: 422,
    unchanged: true,
  },
]);

describe("settings admin API as the admin", () => {
  test("read, update, and the brand shows on the public pages", async () => {
    const api = await scenarioApp({ admin: true });
    // The admin's view adds each platform's link slug and the disclosure wording (none reworded).
    const adminView = {
      ...settings,
      platformA: { ...settings.platformA, linkSlug: expect.stringMatching(/^[a-z0-9-]+$/) },
      platformB: { ...settings.platformB, linkSlug: expect.stringMatching(/^[a-z0-9-]+$/) },
      disclosureWording: {},
      // Left out of the body, so left as they were: not published yet.
      operatorName: "",
      operatorContact: "",
    };
    await api.check({ who: "admin", path: "/api/admin/settings", status: 200, contains: { brandName: "Cam Guide" } });
    await api.check({
      who: "admin",
      method: "PUT",
      path: "/api/admin/settings",
      body: settings,
      status: 200,
      json: adminView,
    });
    await api.check({ who: "admin", path: "/api/admin/settings", status: 200, json: adminView });
    expect((await renderPage(api.request, "/")).title).toEndWith("| Velvet Start");
    // Pages get each platform's managed link on this site, which leads to the URL just saved.
    const pub = (await (await api.request("/api/settings")).json()) as typeof settings & {
      resultRetentionDays: number;
      footerPages: unknown[];
    };
    expect(pub).toEqual({
      ...settings,
      disclosureWording: {},
      operatorName: "",
      operatorContact: "",
      platformA: { name: "Alpha", url: expect.stringMatching(/^\/go\/[a-z0-9-]+$/) },
      platformB: { name: "Beta", url: expect.stringMatching(/^\/go\/[a-z0-9-]+$/) },
      // Pages also say how long saved results are kept (the default here), and which added pages the footer links.
      resultRetentionDays: 180,
      footerPages: [],
    });
    for (const [platform, saved] of [
      [pub.platformA, settings.platformA],
      [pub.platformB, settings.platformB],
    ] as const) {
      const go = await api.request(`${platform.url}?p=footer`);
      expect(go.status).toBe(302);
      expect(go.headers.get("location")).toBe(saved.url);
    }
  });
});

describe("the claims the site makes about itself", () => {
  const BANNER = "Join Platform One today and start earning!";
  /** The home page's figures, each its value then its label. */
  const figures = (page: Awaited<ReturnType<typeof renderPage>>) =>
    within(page.main().getByRole("region", { name: "In numbers" }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);

  test("a new install shows today's figures, testimonial and banner claim", async () => {
    const { asAdmin, request } = await adminApp();
    expect(await (await asAdmin("/api/admin/settings")).json()).toMatchObject(CLAIM_DEFAULTS);
    const home = await renderPage(request, "/");
    expect(figures(home)).toEqual([
      "$10k+Potential monthly income for top performers",
      "5 minTo find your cam model persona",
      "10,000+Cam models helped",
    ]);
    expect(home.text).toContain(`“${CLAIM_DEFAULTS.testimonialQuote}”`);
    expect(home.text).toContain("— Jess, Girl Next Door archetype. One member's experience; results vary.");
    const banner = (await renderPage(request, "/quiz/earnings")).screen.getByRole("complementary", {
      name: "Sponsored",
    });
    // The link's words, after the banner's Sponsored label.
    expect(within(banner).getByRole("link").textContent).toBe(
      `${BANNER} Over 100,000 webcam models trust Platform One for steady income.`,
    );
  });

  test("emoji keep their selectors and joiners; the same characters elsewhere are refused", async () => {
    const { asAdmin, request } = await adminApp();
    const current = await (await asAdmin("/api/admin/settings")).json();
    const quote = "Best decision ❤️ I stream as 👩🏽‍💻 from 🏴󠁧󠁢󠁳󠁣󠁴󠁿, rated 5️⃣ stars";
    const saved = await asAdmin("/api/admin/settings", {
      method: "PUT",
      json: { ...current, testimonialQuote: quote },
    });
    expect(saved.status).toBe(200);
    expect((await renderPage(request, "/")).text).toContain(quote);
    const refused = await asAdmin("/api/admin/settings", {
      method: "PUT",
      json: { ...current, testimonialQuote: "Best\uFE0F decision", bannerClaim: "Trust\u200D {platform}" },
    });
    expect(((await refused.json()) as { details: unknown }).details).toEqual([
      {
        field: "testimonialQuote",
        message: "The testimonial contains an invisible or direction-changing character (U+FE0F): remove it",
      },
      {
        field: "bannerClaim",
        message: "The banner claim contains an invisible or direction-changing character (U+200D): remove it",
      },
    ]);
  });

  test("an edit shows on the next request of the cached pages; an empty claim hides its element", async () => {
    const { asAdmin, request } = await adminApp();
    const put = async (changes: Record<string, string>) => {
      const current = await (await asAdmin("/api/admin/settings")).json();
      const res = await asAdmin("/api/admin/settings", { method: "PUT", json: { ...current, ...changes } });
      expect(res.status).toBe(200);
      return res.json();
    };
    const home = () => renderPage(request, "/");
    const banner = async () =>
      within(
        (await renderPage(request, "/quiz/earnings")).screen.getByRole("complementary", { name: "Sponsored" }),
      ).getByRole("link").textContent;
    // Both pages are rendered (and cached) before each change.
    await home();
    await banner();

    await put({ incomeFigure: "$3k+", bannerClaim: "{platform} pays {platform}'s models weekly." });
    expect((await home()).text).toContain("$3k+Potential monthly income for top performers");
    expect(await banner()).toBe(`${BANNER} Platform One pays Platform One's models weekly.`);

    // Spaces count as empty, and are stored that way.
    expect(await put({ incomeFigure: "  ", modelsHelpedFigure: "", bannerClaim: " " })).toMatchObject({
      incomeFigure: "",
      modelsHelpedFigure: "",
      bannerClaim: "",
    });
    const page = await home();
    expect(figures(page)).toEqual(["5 minTo find your cam model persona"]);
    expect(page.text).not.toContain("Potential monthly income");
    expect(page.text).not.toContain("Cam models helped");
    expect(await banner()).toBe(BANNER);

    // Without an author the words still show, with their note; without words, nothing does.
    await put({ testimonialAttribution: "" });
    const anonymous = await home();
    expect(anonymous.document.querySelector("blockquote")?.textContent).toBe(`“${CLAIM_DEFAULTS.testimonialQuote}”`);
    expect(anonymous.document.querySelector("figcaption")?.textContent).toBe("One member's experience; results vary.");
    await put({ testimonialQuote: "", testimonialAttribution: "Jess, Girl Next Door archetype" });
    const without = await home();
    expect(without.screen.queryByRole("heading", { name: "A member's story" })).toBeNull();
    expect(without.document.querySelector("figure, blockquote")).toBeNull();
    const shown = without.document.querySelector("main")?.textContent;
    expect(shown).not.toContain("Jess");
    expect(shown).not.toContain("results vary");
  });

  test("the seed file and the columns' defaults hold the same texts", () => {
    expect(content.siteSettings).toMatchObject(CLAIM_DEFAULTS);
  });

  test("a database from before the claims were settings gets the same texts when it is upgraded", () => {
    // The migrations up to the one that added the claims, with a settings row an operator saved.
    const dir = mkdtempSync(join(tmpdir(), "cam-guide-claims-"));
    try {
      const journal = JSON.parse(readFileSync(resourcePath("drizzle", "meta", "_journal.json"), "utf8"));
      const claimsAt = journal.entries.findIndex((entry: { tag: string }) => entry.tag === "0002_site_claims");
      expect(claimsAt).toBeGreaterThan(0);
      const earlier = journal.entries.slice(0, claimsAt);
      cpSync(resourcePath("drizzle"), join(dir, "drizzle"), { recursive: true });
      writeFileSync(join(dir, "drizzle", "meta", "_journal.json"), JSON.stringify({ ...journal, entries: earlier }));
      const handle = openDatabase(join(dir, "app.db"));
      migrate(handle.drizzle, { migrationsFolder: join(dir, "drizzle") });
      handle.sqlite.run(
        "INSERT INTO site_settings (id, brand_name, platform_a_name, platform_a_url, platform_b_name, platform_b_url) VALUES (1, 'Old Brand', 'A', 'https://a.example', 'B', 'https://b.example')",
      );
      applyMigrations(handle);
      const row = handle.sqlite
        .query(
          "SELECT brand_name, income_figure, models_helped_figure, testimonial_quote, testimonial_attribution, banner_claim FROM site_settings",
        )
        .get();
      handle.close();
      expect(row).toEqual({
        brand_name: "Old Brand",
        income_figure: CLAIM_DEFAULTS.incomeFigure,
        models_helped_figure: CLAIM_DEFAULTS.modelsHelpedFigure,
        testimonial_quote: CLAIM_DEFAULTS.testimonialQuote,
        testimonial_attribution: CLAIM_DEFAULTS.testimonialAttribution,
        banner_claim: CLAIM_DEFAULTS.bannerClaim,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the site's public address", () => {
  const address = "/api/admin/settings/address";

  /** Signs in through `origin` (the Host the request reached and its Origin header, as a browser there sends). */
  const signInAt = (app: { app: { handle: (request: Request) => Promise<Response> } }, origin: string) =>
    app.app.handle(
      new Request(`${origin}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify(ADMIN),
      }),
    );

  test("none at first; the admin's first sign-in at a public address records it", async () => {
    const t = await adminApp();
    const { request, asAdmin } = t;
    // adminApp signed in from http://localhost, which only this machine reaches: not recorded.
    expect(await (await asAdmin(address)).json()).toEqual({ origin: null, source: "none" });
    expect((await signInAt(t, "https://guide.example.com")).status).toBe(200);
    expect(await (await asAdmin(address)).json()).toEqual({ origin: "https://guide.example.com", source: "sign-in" });
    expect((await renderPage(request, "/learn")).link("canonical")).toBe("https://guide.example.com/learn");
    expect(await (await request("/robots.txt")).text()).toContain("Sitemap: https://guide.example.com/sitemap.xml");
    // The sitemap's index and its parts, at that address.
    expect((await readSitemap(request, "https://guide.example.com")).locs).toContain("https://guide.example.com/learn");
    // Forgetting it: relative links again, and no sitemap (neither the index nor a part).
    expect((await asAdmin(address, { method: "DELETE" })).status).toBe(200);
    expect((await renderPage(request, "/learn")).link("canonical")).toBe("/learn");
    expect((await request("/sitemap.xml")).status).toBe(404);
    expect((await request("/sitemap-pages.xml")).status).toBe(404);
  });

  test.each([
    "http://localhost:3000",
    "http://127.0.0.1:3000",
    "http://[::1]:3000",
    "http://192.168.1.20",
    "http://10.0.0.5:8080",
    "http://172.20.0.3",
    "http://cam-guide:3000",
    "http://mybox.local",
    "http://guide.localhost",
  ])("a sign-in at %s (a local address) records nothing: visitors could not follow its links", async (origin) => {
    const t = await adminApp();
    expect((await signInAt(t, origin)).status).toBe(200);
    expect(await (await t.asAdmin(address)).json()).toEqual({ origin: null, source: "none" });
    expect((await t.request("/sitemap.xml")).status).toBe(404);
  });

  test("a later sign-in from another address moves an unconfirmed address, never a confirmed one", async () => {
    const t = await adminApp();
    const { asAdmin } = t;
    expect((await signInAt(t, "https://first.example.com")).status).toBe(200);
    expect((await (await asAdmin(address)).json()).origin).toBe("https://first.example.com");
    // A foreign Origin is refused by the same-site check and records nothing.
    const foreign = await t.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify(ADMIN),
    });
    expect(foreign.status).toBe(403);
    expect((await signInAt(t, "https://second.example.com")).status).toBe(200);
    expect((await (await asAdmin(address)).json()).origin).toBe("https://second.example.com");
    await asAdmin(address, { method: "PUT", json: { origin: "https://guide.example.com/" } });
    expect(await (await asAdmin(address)).json()).toEqual({ origin: "https://guide.example.com", source: "confirmed" });
    expect((await signInAt(t, "https://third.example.com")).status).toBe(200);
    expect((await (await asAdmin(address)).json()).origin).toBe("https://guide.example.com");
  });

  test("a change empties the page cache", async () => {
    const t = await adminApp();
    const { request, asAdmin } = t;
    await signInAt(t, "https://first.example.com");
    expect((await renderPage(request, "/learn")).link("canonical")).toBe("https://first.example.com/learn");
    await asAdmin(address, { method: "PUT", json: { origin: "https://guide.example.com" } });
    const page = await renderPage(request, "/learn");
    expect(page.link("canonical")).toBe("https://guide.example.com/learn");
    expect(page.meta("og:url")).toBe("https://guide.example.com/learn");
    // The legal pages, cached like any page, follow it too.
    expect((await renderPage(request, "/privacy")).link("canonical")).toBe("https://guide.example.com/privacy");
  });

  test("PUBLIC_URL wins, and the address cannot be changed here", async () => {
    const { asAdmin } = await adminApp({ publicUrl: "https://env.example.com" });
    expect(await (await asAdmin(address)).json()).toEqual({ origin: "https://env.example.com", source: "environment" });
    const res = await asAdmin(address, { method: "PUT", json: { origin: "https://guide.example.com" } });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toContain("PUBLIC_URL");
  });
});

runScenarios("saving the public address", [
  ...[
    "https://example.com/blog",
    "https://example.com?x=1",
    "https://example.com#top",
    "https://user:pw@example.com",
    "ftp://example.com",
    "javascript:alert(1)",
    "example.com",
    "https://exa mple.com",
    "https://example.com:99999",
    "https://[::1",
    "https://evil.example\n.com",
    "//example.com",
    "",
    `https://${"a".repeat(300)}.com`,
  ].map((origin) => ({
    name: `refuses ${JSON.stringify(origin).slice(0, 40)}`,
    who: "admin" as const,
    method: "PUT" as const,
    path: "/api/admin/settings/address",
    body: { origin },
    status: 422,
    check: (res: { json: <T>() => T }) =>
      expect(res.json<{ details: unknown[] }>().details).toEqual([{ field: "origin", message: expect.any(String) }]),
    unchanged: ["site_settings"],
  })),
  {
    name: "refuses a body without an origin",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings/address",
    body: {},
    status: 422,
    unchanged: ["site_settings"],
  },
  {
    name: "accepts an origin with a port, in its canonical form",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings/address",
    body: { origin: "HTTP://Guide.Example.com:8080/" },
    status: 200,
    json: { origin: "http://guide.example.com:8080", source: "confirmed" },
  },
  {
    name: "guests cannot read it",
    path: "/api/admin/settings/address",
    status: 401,
  },
  {
    name: "another site cannot change it",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings/address",
    body: { origin: "https://guide.example.com" },
    headers: { origin: "https://evil.example" },
    status: 403,
    unchanged: true,
  },
]);
