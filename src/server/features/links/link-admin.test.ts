import { describe, expect, test } from "bun:test";
import { utcDay } from "#server/lib/utc-day.ts";
import { METRICS } from "#shared/features/analytics/constants.ts";
import { DEFAULT_DISCLOSURE_WORDING } from "#shared/features/disclosure/constants.ts";
import type { AdminLinkWithClicks } from "#shared/features/links/contract.ts";
import { adminApp } from "#tests/support/admin.ts";
import { offerInput, productInput } from "#tests/support/admin-inputs.ts";
import { createLink, createOffer, createPost } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";

type App = Awaited<ReturnType<typeof adminApp>>;

const go = async (t: App, path: string) => (await t.request(path)).headers.get("location");
const count = (t: App, table: string) =>
  (t.database.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const links = async (t: App) => (await (await t.asAdmin("/api/admin/links")).json()) as AdminLinkWithClicks[];

describe("an offer, a product or a platform picks or makes its managed link", () => {
  test("a new link made with an offer: /go/<slug> leads to it, and the offer keeps its destination", async () => {
    const t = await adminApp();
    const res = await t.asAdmin("/api/admin/affiliate-offer", {
      method: "POST",
      json: offerInput({
        linkUrl: undefined,
        linkSlug: "+new",
        newLinkSlug: "fresh-offer",
        newLinkDestination: "https://fresh.example/join",
      }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ linkSlug: "fresh-offer", linkUrl: "https://fresh.example/join" });
    expect(await go(t, "/go/fresh-offer?p=offer")).toBe("https://fresh.example/join");
    const offers = (await (await t.request("/api/module/2/affiliate-offers")).json()) as { linkUrl: string }[];
    expect(offers.map((o) => o.linkUrl)).toContain("/go/fresh-offer");
  });

  test("an existing link picked by a product: no new link; the product's link column follows the link", async () => {
    const t = await adminApp();
    await createLink(t.db, { slug: "shared-shop", destination: "https://shop.example/kit" });
    const before = count(t, "links");
    const res = await t.asAdmin("/api/admin/recommended-product", {
      method: "POST",
      // The typed link differs: the picked link's destination is what the product keeps.
      json: productInput({ link: "https://typed.example/", linkSlug: "shared-shop" }),
    });
    expect(res.status).toBe(201);
    expect(count(t, "links")).toBe(before);
    const row = t.database.sqlite
      .query("SELECT link, link_slug FROM recommended_products WHERE id = 'custom_ab12cd34'")
      .get();
    expect(row).toEqual({ link: "https://shop.example/kit", link_slug: "shared-shop" });
    expect(await go(t, "/go/shared-shop")).toBe("https://shop.example/kit");
  });

  test("the settings' platforms pick links too", async () => {
    const t = await adminApp();
    await createLink(t.db, { slug: "other-platform", destination: "https://other.example/" });
    const settings = await (await t.asAdmin("/api/admin/settings")).json();
    const body = {
      ...settings,
      platformA: { ...settings.platformA, linkSlug: "other-platform" },
      platformB: {
        ...settings.platformB,
        linkSlug: "+new",
        newLinkSlug: "platform-b-new",
        newLinkDestination: "https://b-new.example/join",
      },
    };
    expect((await t.asAdmin("/api/admin/settings", { method: "PUT", json: body })).status).toBe(200);
    const pub = await (await t.request("/api/settings")).json();
    expect([pub.platformA.url, pub.platformB.url]).toEqual(["/go/other-platform", "/go/platform-b-new"]);
    expect(await go(t, "/go/platform-b-new?p=footer")).toBe("https://b-new.example/join");
    const admin = await (await t.asAdmin("/api/admin/settings")).json();
    expect(admin.platformA).toMatchObject({ url: "https://other.example/", linkSlug: "other-platform" });
  });

  test("an unknown slug, a taken new slug, a bad new slug or destination: a 4xx at the field, nothing changed", async () => {
    const t = await adminApp();
    await createLink(t.db, { slug: "taken", destination: "https://taken.example/" });
    const state = () => ({
      links: t.database.sqlite.query("SELECT * FROM links ORDER BY id").all(),
      offers: count(t, "affiliate_offers"),
      settings: t.database.sqlite.query("SELECT * FROM site_settings").get(),
    });
    const before = state();
    const cases: [unknown, number, string, string][] = [
      [{ linkSlug: "no-such-link" }, 422, "linkSlug", 'There is no link with the slug "no-such-link"'],
      [
        { linkSlug: "+new", newLinkSlug: "taken", newLinkDestination: "https://x.example/" },
        409,
        "newLinkSlug",
        'A link with the slug "taken" exists',
      ],
      [
        { linkSlug: "+new", newLinkSlug: "Bad Slug", newLinkDestination: "https://x.example/" },
        422,
        "newLinkSlug",
        "lower-case letters, digits and single hyphens",
      ],
      [
        { linkSlug: "+new", newLinkSlug: "ok-slug", newLinkDestination: "javascript:alert(1)" },
        422,
        "newLinkDestination",
        "http:// or https://",
      ],
    ];
    for (const [choice, status, field, message] of cases) {
      const res = await t.asAdmin("/api/admin/affiliate-offer", {
        method: "POST",
        json: { ...offerInput(), ...(choice as object) },
      });
      expect([field, res.status]).toEqual([field, status]);
      const answer = (await res.json()) as { details: { field: string; message: string }[] };
      expect(answer.details).toEqual([{ field, message: expect.stringContaining(message) }]);
    }
    // The same rules for a platform, at the platform's field.
    const settings = await (await t.asAdmin("/api/admin/settings")).json();
    const res = await t.asAdmin("/api/admin/settings", {
      method: "PUT",
      json: {
        ...settings,
        brandName: "Changed",
        platformB: {
          ...settings.platformB,
          linkSlug: "+new",
          newLinkSlug: "taken",
          newLinkDestination: "https://x.example/",
        },
      },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { details: { field: string }[] }).details[0]?.field).toBe("platformB.newLinkSlug");
    expect(state()).toEqual(before);
  });
});

describe("the Links section", () => {
  test("a new link: made, listed, followed; a taken or bad slug is refused", async () => {
    const t = await adminApp();
    const make = (json: unknown) => t.asAdmin("/api/admin/link", { method: "POST", json });
    const res = await make({ slug: "by-hand", destination: "https://hand.example/", active: true, notes: " n " });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ slug: "by-hand", notes: "n", fallbackDestination: null });
    const counted = await make({
      slug: "counted",
      destination: "https://c.example/",
      active: true,
      autoFallbackAfter: 2,
    });
    expect(await counted.json()).toMatchObject({ slug: "counted", autoFallbackAfter: 2 });
    expect(
      (await make({ slug: "too-many", destination: "https://c.example/", active: true, autoFallbackAfter: 99 })).status,
    ).toBe(422);
    expect(await go(t, "/go/by-hand")).toBe("https://hand.example/");
    const before = count(t, "links");
    const taken = await make({ slug: "by-hand", destination: "https://other.example/", active: true });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { details: { field: string }[] }).details[0]?.field).toBe("slug");
    expect((await make({ slug: "By Hand", destination: "https://x.example/", active: true })).status).toBe(422);
    expect((await make({ slug: "ok", destination: "ftp://x.example/", active: true })).status).toBe(422);
    expect(count(t, "links")).toBe(before);
    expect(await go(t, "/go/by-hand")).toBe("https://hand.example/");
  });

  test("an edit without the fallback, the notes or the failed-check count keeps them; empty or null clears", async () => {
    const t = await adminApp();
    const link = await createLink(t.database.db, {
      destination: "https://main.example/",
      fallbackDestination: "https://fallback.example/",
      notes: "Spring campaign",
      autoFallbackAfter: 3,
    });
    const put = (json: unknown) => t.asAdmin(`/api/admin/link/${link.id}`, { method: "PUT", json });
    const kept = { fallbackDestination: "https://fallback.example/", notes: "Spring campaign", autoFallbackAfter: 3 };
    // Switched off and on again with only the required fields: nothing else is lost.
    const off = await put({ destination: "https://main.example/", active: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ active: false, ...kept });
    expect(await go(t, `/go/${link.slug}`)).toBe("https://fallback.example/");
    const on = await put({ destination: "https://new.example/", active: true });
    expect(await on.json()).toMatchObject({ active: true, destination: "https://new.example/", ...kept });
    // What the admin's form sends (every field) still changes them.
    const edited = await put({
      destination: "https://new.example/",
      active: true,
      fallbackDestination: "https://other.example/",
      notes: " Autumn ",
    });
    expect(await edited.json()).toMatchObject({ fallbackDestination: "https://other.example/", notes: "Autumn" });
    const cleared = await put({
      destination: "https://new.example/",
      active: true,
      fallbackDestination: "",
      notes: null,
    });
    expect(await cleared.json()).toMatchObject({ fallbackDestination: null, notes: null, autoFallbackAfter: 3 });
    const clearedToo = await put({
      destination: "https://new.example/",
      active: true,
      fallbackDestination: null,
      notes: "",
    });
    expect(clearedToo.status).toBe(200);
    expect(
      t.database.sqlite
        .query("SELECT fallback_destination AS f, notes AS n, auto_fallback_after AS a FROM links WHERE id = ?")
        .get(link.id),
    ).toEqual({ f: null, n: null, a: 3 });
  });

  test("clicks in the last 7 and 30 days (today included), per placement, each link its own", async () => {
    const t = await adminApp({ seed: false });
    await createLink(t.db, { slug: "counted" });
    await createLink(t.db, { slug: "counted-too" });
    const now = new Date();
    const rows: [number, string, number][] = [
      [0, "counted/footer", 2], // today
      [6, "counted/offer", 3], // the 7th day back: in both
      [8, "counted/footer", 5], // only in 30
      [29, "counted/", 7], // the 30th day back: only in 30
      [31, "counted/footer", 100], // in neither
      [1, "counted-too/footer", 50], // another link
    ];
    for (const [days, key, n] of rows)
      t.database.sqlite.run("INSERT INTO analytics_daily (day, metric, key, count) VALUES (?, ?, ?, ?)", [
        utcDay(now, days),
        METRICS.click,
        key,
        n,
      ]);
    // Another metric with a link-like key is not a click.
    t.database.sqlite.run(
      "INSERT INTO analytics_daily (day, metric, key, count) VALUES (?, 'pageview', 'counted/x', 9)",
      [utcDay(now)],
    );
    const list = await links(t);
    const counted = list.find((l) => l.slug === "counted")!;
    expect(counted.clicks.days7).toBe(5);
    expect(counted.clicks.days30).toBe(17);
    expect(counted.clicks.placements).toEqual([
      // Most clicks first; a tie in placement order.
      { placement: "", days7: 0, days30: 7 },
      { placement: "footer", days7: 2, days30: 7 },
      { placement: "offer", days7: 3, days30: 3 },
    ]);
    expect(list.find((l) => l.slug === "counted-too")!.clicks).toMatchObject({ days7: 50, days30: 50 });
  });
});

describe("the operator's disclosure wording", () => {
  const labels = (html: string) =>
    [...html.matchAll(/<span[^>]*class="affiliate-label"[^>]*>([^<]*(?:&lt;[^<]*)*)<\/span>/g)].map((m) => m[1]);

  test("saved, shown on public pages as text, blank parts fall back, too long refused; the cache follows", async () => {
    const t = await adminApp();
    const first = await renderPage(t.request, "/");
    expect(labels(first.html)).toContain(DEFAULT_DISCLOSURE_WORDING.affiliate);
    // Cached now; the change below must still show at once.
    await renderPage(t.request, "/");
    const settings = await (await t.asAdmin("/api/admin/settings")).json();
    const save = (disclosureWording: unknown) =>
      t.asAdmin("/api/admin/settings", { method: "PUT", json: { ...settings, disclosureWording } });
    const saved = await save({ affiliate: " <b>Paid</b> link ", sponsored: "   ", note: "" });
    expect(saved.status).toBe(200);
    expect((await saved.json()).disclosureWording).toEqual({ affiliate: "<b>Paid</b> link" });
    const stored = t.database.sqlite.query("SELECT disclosure_wording FROM site_settings").get() as {
      disclosure_wording: string;
    };
    expect(JSON.parse(stored.disclosure_wording)).toEqual({ affiliate: "<b>Paid</b> link" });
    expect((await (await t.request("/api/settings")).json()).disclosureWording).toEqual({
      affiliate: "<b>Paid</b> link",
    });
    const page = await renderPage(t.request, "/");
    expect(page.html).not.toContain("<b>Paid</b>");
    expect(labels(page.html)).toContain("&lt;b&gt;Paid&lt;/b&gt; link");
    expect(labels(page.html)).not.toContain(DEFAULT_DISCLOSURE_WORDING.affiliate);
    // The blank Sponsored label is the default, never removed.
    expect(page.text).toContain(DEFAULT_DISCLOSURE_WORDING.sponsored);

    const before = t.database.sqlite.query("SELECT * FROM site_settings").get();
    for (const [wording, field] of [
      [{ sponsored: "x".repeat(41) }, "disclosureWording.sponsored"],
      [{ note: "x".repeat(301) }, "disclosureWording.note"],
      [{ linkText: "a\u202Eb" }, "disclosureWording.linkText"],
      [{ other: "x" }, "disclosureWording.other"],
    ] as const) {
      const res = await save(wording);
      expect(res.status).toBe(422);
      const answer = (await res.json()) as { details: { field: string; message: string }[] };
      expect(answer.details.map((d) => d.field)).toContain(field);
    }
    expect(t.database.sqlite.query("SELECT * FROM site_settings").get()).toEqual(before);
    // All blank again: the defaults, stored as nothing.
    expect((await save({ affiliate: " " })).status).toBe(200);
    expect(labels((await renderPage(t.request, "/")).html)).toContain(DEFAULT_DISCLOSURE_WORDING.affiliate);
  });

  test("a part that would render blank is refused at its field: at least two letters or digits", async () => {
    const t = await adminApp();
    const settings = await (await t.asAdmin("/api/admin/settings")).json();
    const save = (disclosureWording: unknown) =>
      t.asAdmin("/api/admin/settings", { method: "PUT", json: { ...settings, disclosureWording } });
    const before = t.database.sqlite.query("SELECT * FROM site_settings").get();
    // A character drawn blank is named; marks alone need letters or digits.
    for (const [text, said] of [
      ["\u2800", "(U+2800)"],
      ["\u034f", "(U+034F)"],
      ["\u2800\u2800 \u2800", "(U+2800)"],
      ["\u200b\u200b", "(U+200B)"],
      ["\u034fx", "(U+034F)"],
      ["--", "at least two letters or digits"],
      ["A.", "at least two letters or digits"],
    ]) {
      for (const key of ["sponsored", "note"] as const) {
        const res = await save({ [key]: text });
        expect(res.status).toBe(422);
        const answer = (await res.json()) as { details: { field: string; message: string }[] };
        expect(answer.details).toContainEqual({
          field: `disclosureWording.${key}`,
          message: expect.stringContaining(said!),
        });
      }
    }
    expect(t.database.sqlite.query("SELECT * FROM site_settings").get()).toEqual(before);

    const saved = await save({ sponsored: "Anzeige", affiliate: "広告", note: "Werbung 1", linkText: "  " });
    expect(saved.status).toBe(200);
    expect((await saved.json()).disclosureWording).toEqual({
      sponsored: "Anzeige",
      affiliate: "広告",
      note: "Werbung 1",
    });
    const page = await renderPage(t.request, "/");
    expect(labels(page.html)).toContain("広告");
  });
});

describe("deleting a link", () => {
  test("a link a source uses is refused with their names; one posts link to says so, goes, and their links lead home", async () => {
    const t = await adminApp({ seed: false });
    const used = await createLink(t.db, { slug: "used-by-offer" });
    await createOffer(t.db, { title: "Lamp deal", linkSlug: "used-by-offer" });
    const inPosts = await createLink(t.db, { slug: "in-posts" });
    await createPost(t.db, {
      title: "My lamp",
      content: '<p><a href="/go/in-posts" target="_blank" rel="sponsored noopener">x</a></p>',
    });
    await createPost(t.db, { title: "Other", content: '<p><a href="/go/in-posts-too">y</a></p>' });

    const usage = await t.asAdmin(`/api/admin/link/${used.id}/usage`);
    expect(await usage.json()).toEqual({ slug: "used-by-offer", sources: ['the offer "Lamp deal"'], posts: [] });
    const refused = await t.asAdmin(`/api/admin/link/${used.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toContain('the offer "Lamp deal"');
    expect(await go(t, "/go/used-by-offer")).not.toBe("/");

    const posts = (await (await t.asAdmin(`/api/admin/link/${inPosts.id}/usage`)).json()) as { posts: unknown[] };
    expect(posts.posts).toEqual([{ id: expect.any(Number), title: "My lamp" }]);
    const deleted = await t.asAdmin(`/api/admin/link/${inPosts.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ message: "/go/in-posts deleted", posts: 1 });
    expect(await go(t, "/go/in-posts")).toBe("/");
    expect((await t.asAdmin(`/api/admin/link/${inPosts.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await t.asAdmin("/api/admin/link/x", { method: "DELETE" })).status).toBe(422);
  });
});
