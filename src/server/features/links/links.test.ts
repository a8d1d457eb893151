import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { adoptLinks } from "#server/db/adopt-links.ts";
import { applyMigrations, openDatabase } from "#server/db/client.ts";
import { content } from "#server/db/content.ts";
import { listProductsFor } from "#server/features/products/service.ts";
import { getAdminSettings, getSettings } from "#server/features/settings/service.ts";
import { resourcePath } from "#server/resources.ts";
import { PLACEMENT_PAGES, placementPage } from "#shared/features/links/constants.ts";
import type { AdminLink } from "#shared/features/links/contract.ts";
import { LinkSlug, LinkUpdate } from "#shared/features/links/contract.ts";
import { readDestination } from "#shared/features/links/destination.ts";
import { fieldProblems } from "#shared/schema/field-problems.ts";
import { adminApp } from "#tests/support/admin.ts";
import { testApp } from "#tests/support/app.ts";
import { createLink } from "#tests/support/factories.ts";
import { resolveGo, slugFrom } from "./service.ts";

const go = async (t: ReturnType<typeof testApp>, path: string) => {
  const res = await t.request(path);
  return { status: res.status, location: res.headers.get("location"), headers: res.headers };
};

describe("GET /go/<slug>", () => {
  test("an active link: a 302 to its destination, never cached or indexed", async () => {
    const t = testApp({ seed: false });
    await createLink(t.db, { slug: "join-alpha", destination: "https://alpha.example/join?ref=cam" });
    const res = await go(t, "/go/join-alpha?p=footer");
    expect(res.status).toBe(302);
    expect(res.location).toBe("https://alpha.example/join?ref=cam");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    // Without a placement, and with one the site does not know: the same destination.
    expect((await go(t, "/go/join-alpha")).location).toBe("https://alpha.example/join?ref=cam");
    expect((await go(t, "/go/join-alpha?p=https://evil.example")).location).toBe("https://alpha.example/join?ref=cam");
  });

  test("an unknown slug goes to the home page", async () => {
    const t = testApp({ seed: false });
    const res = await go(t, "/go/no-such-link?p=offer");
    expect(res).toMatchObject({ status: 302, location: "/" });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  test("an inactive link goes to its fallback, else to the page it was placed on", async () => {
    const t = testApp({ seed: false });
    await createLink(t.db, { slug: "off-with-fallback", active: false, fallbackDestination: "https://b.example/" });
    await createLink(t.db, { slug: "off", active: false });
    expect((await go(t, "/go/off-with-fallback?p=offer")).location).toBe("https://b.example/");
    for (const [placement, page] of Object.entries(PLACEMENT_PAGES))
      expect((await go(t, `/go/off?p=${placement}`)).location).toBe(page);
    expect((await go(t, "/go/off")).location).toBe("/");
  });

  test("hostile placements never become the address: only the site's own pages", async () => {
    const t = testApp({ seed: false });
    await createLink(t.db, { slug: "off", active: false });
    const placements = [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "%2F%2Fevil.example",
      "__proto__",
      "constructor",
      "toString",
      "hasOwnProperty",
      "footer%0d%0aSet-Cookie:%20a=b",
      "footer&p=//evil.example",
      "x".repeat(5000),
    ];
    for (const p of placements) {
      const res = await go(t, `/go/off?p=${p}`);
      expect(res.status).toBe(302);
      expect(Object.values(PLACEMENT_PAGES) as string[]).toContain(res.location!);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  test("hostile slugs go to the home page (no open redirect, no error)", async () => {
    const t = testApp();
    await createLink(t.db, { slug: "real", destination: "https://real.example/" });
    const slugs = [
      "REAL",
      "real-",
      "-real",
      "re--al",
      "https:%2F%2Fevil.example",
      "%2F%2Fevil.example",
      "..%2F..%2Fadmin",
      "real%00",
      "real%0d%0aLocation:%20https:%2F%2Fevil.example",
      "%E2%80%AEreal",
      "a".repeat(65),
      "a".repeat(5000),
      "real'%20OR%20'1'='1",
      "%25",
      "_",
    ];
    for (const slug of slugs) {
      const res = await go(t, `/go/${slug}`);
      expect([res.status, res.location]).toEqual([302, "/"]);
    }
    // A path under a slug is no link; the page router answers it with its 404 page.
    for (const path of ["/go/real/extra", "/go/real%0d%0aLocation:%20https://evil.example", "/go//evil.example"]) {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("location")).toBeNull();
    }
    expect((await go(t, "/go/real")).location).toBe("https://real.example/");
  });

  test("the destination comes from the database, whatever the request's host or headers say", async () => {
    const t = testApp({ seed: false });
    await createLink(t.db, { slug: "real", destination: "https://real.example/" });
    const res = await t.app.handle(
      new Request("http://evil.example/go/real?p=footer", {
        headers: { "x-forwarded-host": "evil.example", referer: "https://evil.example/" },
      }),
    );
    expect([302, 400, 421]).toContain(res.status);
    if (res.status === 302) expect(res.headers.get("location")).toBe("https://real.example/");
  });

  test("robots.txt keeps search engines out of /go/", async () => {
    const t = testApp({ seed: false });
    expect(await (await t.request("/robots.txt")).text()).toContain("Disallow: /go/\n");
  });
});

describe("the links contract", () => {
  const valid = { destination: "https://alpha.example/join", active: true };

  test("accepts an http(s) destination, an optional fallback and notes", () => {
    expect(Value.Check(LinkUpdate, valid)).toBe(true);
    expect(Value.Check(LinkUpdate, { ...valid, destination: "http://127.0.0.1:5560/x?y=1#z" })).toBe(true);
    expect(Value.Check(LinkUpdate, { ...valid, fallbackDestination: "", notes: null })).toBe(true);
    expect(Value.Check(LinkUpdate, { ...valid, fallbackDestination: "https://b.example/" })).toBe(true);
  });

  test("refuses other schemes, bare words and bad slugs, with a message that says the rule", () => {
    for (const destination of [
      "javascript:alert(1)",
      "data:text/html,x",
      "ftp://a.example",
      "//evil.example",
      "/go/x",
      "example.com",
      "https://",
      "https://a.example/with space",
      "https://user@evil.example",
    ]) {
      expect(Value.Check(LinkUpdate, { ...valid, destination })).toBe(false);
      expect(Value.Check(LinkUpdate, { ...valid, fallbackDestination: destination })).toBe(false);
      expect(readDestination(destination).problem).toBeDefined();
    }
    for (const slug of ["", "Join", "join alpha", "-join", "join-", "jo--in", "a".repeat(65), "ü"])
      expect(Value.Check(LinkSlug, slug)).toBe(false);
    expect(fieldProblems(Value.Errors(LinkSlug, "Bad Slug"))[0]?.message).toContain(
      "lower-case letters, digits and single hyphens",
    );
    expect(fieldProblems(Value.Errors(LinkUpdate, { ...valid, destination: "ftp://x" }))).toEqual([
      { field: "destination", message: expect.stringContaining("starting with http:// or https://") },
    ]);
  });

  test("slugs made from names are valid slugs", () => {
    for (const name of ["Platform One", '  ¡Ring Light 10"!  ', "---", "Ünïcode Ñame", "x".repeat(200)]) {
      expect(Value.Check(LinkSlug, slugFrom(name))).toBe(true);
    }
    expect(slugFrom("Platform One")).toBe("platform-one");
    expect(slugFrom("---")).toBe("link");
  });

  test("a placement the site does not know names the home page", () => {
    expect(placementPage("offer")).toBe("/learn");
    expect(placementPage("__proto__")).toBe("/");
    expect(placementPage(null)).toBe("/");
  });
});

describe("the admin's links", () => {
  test("only the admin lists and changes links", async () => {
    const t = testApp();
    expect((await t.request("/api/admin/links")).status).toBe(401);
    const put = await t.request("/api/admin/link/1", {
      method: "PUT",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify({ destination: "https://evil.example/", active: true }),
    });
    expect(put.status).toBe(401);
    expect((await go(t, "/go/platform-one")).location).toBe("https://example.com/platform-one");
  });

  test("the list, an edit, a deactivation: /go/ follows at once, and the sources' forms show the new destination", async () => {
    const t = await adminApp();
    const list = (await (await t.asAdmin("/api/admin/links")).json()) as AdminLink[];
    expect(list.length).toBe(2 + content.offers.length + content.products.length);
    const platform = list.find((link) => link.slug === "platform-one")!;
    expect(platform).toMatchObject({
      destination: "https://example.com/platform-one",
      active: true,
      fallbackDestination: null,
    });

    const edit = (id: number, body: unknown) => t.asAdmin(`/api/admin/link/${id}`, { method: "PUT", json: body });
    const changed = await edit(platform.id, {
      destination: "https://new.example/join",
      active: true,
      fallbackDestination: "",
      notes: "  moved  ",
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      slug: "platform-one",
      destination: "https://new.example/join",
      notes: "moved",
    });
    expect((await go(t, "/go/platform-one?p=footer")).location).toBe("https://new.example/join");
    // The settings form shows the link's destination, so saving it keeps the change.
    const settings = await (await t.asAdmin("/api/admin/settings")).json();
    expect(settings.platformA.url).toBe("https://new.example/join");
    expect((await t.asAdmin("/api/admin/settings", { method: "PUT", json: settings })).status).toBe(200);
    expect((await go(t, "/go/platform-one")).location).toBe("https://new.example/join");

    // Off, without a fallback: back to the page it was placed on; with one: the fallback.
    expect((await edit(platform.id, { destination: "https://new.example/join", active: false })).status).toBe(200);
    expect((await go(t, "/go/platform-one?p=resources")).location).toBe("/resources");
    await edit(platform.id, {
      destination: "https://new.example/join",
      active: false,
      fallbackDestination: "https://b.example/",
    });
    expect((await go(t, "/go/platform-one?p=resources")).location).toBe("https://b.example/");

    // An offer's and a product's forms show their link's destination too.
    const offers = (await (await t.asAdmin("/api/admin/affiliate-offers")).json()) as { linkUrl: string }[];
    const offerLinks = list.filter((link) => link.notes?.startsWith("Offer: "));
    const target = offerLinks[0]!;
    await edit(target.id, { destination: "https://offer.example/new", active: true });
    const after = (await (await t.asAdmin("/api/admin/affiliate-offers")).json()) as { linkUrl: string }[];
    expect(after.filter((o) => o.linkUrl === "https://offer.example/new")).toHaveLength(1);
    expect(after.length).toBe(offers.length);
    const productLink = list.find((link) => link.notes?.startsWith("Product: "))!;
    await edit(productLink.id, { destination: "https://shop.example/new", active: true });
    const products = (await (await t.asAdmin("/api/admin/recommended-products")).json()) as { link: string }[];
    expect(products.filter((p) => p.link === "https://shop.example/new")).toHaveLength(1);
  });

  test("bad input: a 4xx with the field's message, and nothing changes", async () => {
    const t = await adminApp();
    const [first] = (await (await t.asAdmin("/api/admin/links")).json()) as AdminLink[];
    const edit = (id: string, body: unknown) => t.asAdmin(`/api/admin/link/${id}`, { method: "PUT", json: body });
    const cases: [string, unknown, number, string | null][] = [
      [String(first!.id), { destination: "javascript:alert(1)", active: true }, 422, "destination"],
      [
        String(first!.id),
        { destination: "https://ok.example/", active: true, fallbackDestination: "//evil" },
        422,
        "fallbackDestination",
      ],
      [String(first!.id), { destination: "https://ok.example/", active: "yes" }, 422, "active"],
      [String(first!.id), { destination: "https://ok.example/", active: true, notes: "x".repeat(501) }, 422, "notes"],
      [String(first!.id), { active: true }, 422, "destination"],
      ["999999", { destination: "https://ok.example/", active: true }, 404, null],
      ["abc", { destination: "https://ok.example/", active: true }, 422, null],
    ];
    for (const [id, body, status, field] of cases) {
      const res = await edit(id, body);
      expect([id, res.status]).toEqual([id, status]);
      const answer = (await res.json()) as { details?: { field: string; message: string }[] };
      if (field) expect(answer.details?.map((d) => d.field)).toContain(field);
    }
    const [again] = (await (await t.asAdmin("/api/admin/links")).json()) as AdminLink[];
    expect(again).toEqual(first!);
  });
});

describe("upgrading a database from before managed links", () => {
  test("every destination moves into a link once; nothing is lost; a second run changes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cam-guide-links-"));
    try {
      // The migrations before managed links, with data an operator saved.
      const journal = JSON.parse(readFileSync(resourcePath("drizzle", "meta", "_journal.json"), "utf8"));
      const linksAt = journal.entries.findIndex((entry: { tag: string }) => entry.tag === "0003_managed_links");
      expect(linksAt).toBeGreaterThan(0);
      cpSync(resourcePath("drizzle"), join(dir, "drizzle"), { recursive: true });
      writeFileSync(
        join(dir, "drizzle", "meta", "_journal.json"),
        JSON.stringify({ ...journal, entries: journal.entries.slice(0, linksAt) }),
      );
      const handle = openDatabase(join(dir, "app.db"));
      migrate(handle.drizzle, { migrationsFolder: join(dir, "drizzle") });
      handle.sqlite.run(
        "INSERT INTO site_settings (id, brand_name, platform_a_name, platform_a_url, platform_b_name, platform_b_url) VALUES (1, 'Old Brand', 'Alpha', 'https://a.example/join?ref=1', 'Alpha', 'https://b.example/')",
      );
      handle.sqlite.run(
        "INSERT INTO affiliate_offers (title, description, link_url, module_id) VALUES ('Alpha', 'Same name as the platform', 'https://o.example/1', 1), ('Alpha', 'And again', 'https://o.example/1', 2)",
      );
      handle.sqlite.run(
        "INSERT INTO recommended_products (id, name, description, link, price, archetype) VALUES ('ring_light', 'Ring light', 'A light for the face', 'https://shop.example/ring', '$30', 'Couple')",
      );
      const before = {
        settings: handle.sqlite.query("SELECT platform_a_url, platform_b_url FROM site_settings").all(),
        offers: handle.sqlite.query("SELECT id, title, link_url FROM affiliate_offers ORDER BY id").all(),
        products: handle.sqlite.query("SELECT id, link FROM recommended_products").all(),
      };

      applyMigrations(handle);
      expect(await adoptLinks(handle)).toBe(5);

      // The typed destinations are all still there.
      expect(handle.sqlite.query("SELECT platform_a_url, platform_b_url FROM site_settings").all()).toEqual(
        before.settings,
      );
      expect(handle.sqlite.query("SELECT id, title, link_url FROM affiliate_offers ORDER BY id").all()).toEqual(
        before.offers,
      );
      expect(handle.sqlite.query("SELECT id, link FROM recommended_products").all()).toEqual(before.products);

      // Each source refers to a link of its own that leads to its destination.
      const sources = handle.sqlite
        .query(
          `SELECT platform_a_link_slug AS slug, platform_a_url AS url FROM site_settings
           UNION ALL SELECT platform_b_link_slug, platform_b_url FROM site_settings
           UNION ALL SELECT link_slug, link_url FROM affiliate_offers
           UNION ALL SELECT link_slug, link FROM recommended_products`,
        )
        .all() as { slug: string; url: string }[];
      expect(new Set(sources.map((s) => s.slug)).size).toBe(5);
      for (const { slug, url } of sources) {
        expect(slug).toMatch(/^[a-z0-9-]+$/);
        expect(await resolveGo(handle.db, slug, "footer")).toBe(url);
      }
      expect(sources.map((s) => s.slug)).toEqual(["alpha", "alpha-2", "alpha-3", "alpha-4", "ring-light"]);

      // Pages see the links, the admin the destinations.
      const pub = await getSettings(handle.db);
      expect([pub.platformA.url, pub.platformB.url]).toEqual(["/go/alpha", "/go/alpha-2"]);
      expect((await getAdminSettings(handle.db)).platformA.url).toBe("https://a.example/join?ref=1");
      expect((await listProductsFor(handle.db, "Couple"))[0]?.link).toBe("/go/ring-light");

      // The next start finds nothing to do.
      const links = handle.sqlite.query("SELECT * FROM links ORDER BY id").all();
      expect(await adoptLinks(handle)).toBe(0);
      expect(handle.sqlite.query("SELECT * FROM links ORDER BY id").all()).toEqual(links);
      handle.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
