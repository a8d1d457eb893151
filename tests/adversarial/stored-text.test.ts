// Whatever the admin stores (or a row written by other means holds) is text where it
// lands: no element, attribute, meta refresh or script appears in a public page, and the
// feed and the sitemap stay well-formed XML. Hostile values go in through the real admin
// API; the pages come out of the real renderer.
import { describe, expect, test } from "bun:test";
import { SaxesParser } from "saxes";
import { adminApp } from "#tests/support/admin.ts";
import { offerInput, postInput, productInput, settingsInput } from "#tests/support/admin-inputs.ts";
import { parseHtml } from "#tests/support/page.ts";
import { THEME_SCRIPT } from "#web/theme-script.ts";

type App = Awaited<ReturnType<typeof adminApp>>;

// A public address, so the feed and the sitemap are served (they need absolute links).
const SITE = { publicUrl: "http://localhost" };

/** The sitemap's index and the parts it lists on a site with fewer posts than a part holds. */
const SITEMAP = ["/sitemap.xml", "/sitemap-pages.xml", "/sitemap-posts-1.xml"];

/** Problems a strict XML parser finds (well-formedness, characters XML cannot hold). */
function xmlProblems(xml: string): string[] {
  const problems: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on("error", (error) => problems.push(error.message));
  parser.write(xml).close();
  return problems;
}

/** The page has only the elements the site itself writes: nothing stored became markup. */
function expectNoInjection(label: string, html: string) {
  const doc = parseHtml(html);
  const found: string[] = [];
  for (const el of doc.querySelectorAll("*")) {
    const tag = el.tagName.toLowerCase();
    if (tag.includes("pwned")) found.push(`<${tag}>`);
    for (const attr of el.getAttributeNames()) {
      if (attr.startsWith("on")) found.push(`${tag}[${attr}]`);
      if (attr.includes("pwned")) found.push(`${tag}[${attr}]`);
    }
    if (tag === "meta" && el.hasAttribute("http-equiv")) found.push("meta[http-equiv]");
    if (["base", "object", "embed"].includes(tag)) found.push(`<${tag}>`);
    if (tag === "iframe" && /pwned/i.test(el.getAttribute("src") ?? "")) found.push("iframe to pwned");
    // (Post content is HTML by design: an <img src="x"> there is the admin's own, kept without its handler.)
    if (tag === "img" && /pwned/i.test(el.getAttribute("src") ?? "")) found.push("img from the payload");
    if (tag === "a" && /^\s*javascript:/i.test(el.getAttribute("href") ?? "")) found.push("javascript: link");
    if (tag === "script") {
      const type = el.getAttribute("type");
      const src = el.getAttribute("src");
      const allowed =
        src?.startsWith("/assets/") === true ||
        type === "application/json" ||
        type === "application/ld+json" ||
        el.textContent === THEME_SCRIPT;
      if (!allowed) found.push(`script ${src ?? el.textContent?.slice(0, 40)}`);
      // Data blocks stay data: they parse, whatever the stored text was.
      if (type?.endsWith("json")) JSON.parse(el.textContent ?? "");
    }
  }
  expect([label, found]).toEqual([label, []]);
  // In the raw HTML too: a "<" from stored text is always escaped (quotes in text may stay as they are).
  expect([label, /<script>window\.pwned|<pwned-tag|<img src=x/i.test(html)]).toEqual([label, false]);
}

const ok = async (label: string, res: Response) => {
  expect([label, res.status, res.ok ? "" : await res.text()]).toEqual([label, res.status, ""]);
  return res;
};

/** The payload in every text the admin can store, each field within its length limit. */
async function storeEverywhere(app: App, payload: string) {
  const short = (max: number) => payload.slice(0, max);
  await ok(
    "settings",
    await app.asAdmin("/api/admin/settings", {
      method: "PUT",
      json: settingsInput({
        brandName: short(60),
        platformA: { name: short(60), url: "https://alpha.example" },
        platformB: { name: `B ${short(58)}`, url: "https://beta.example" },
      }),
    }),
  );
  await ok(
    "category",
    await app.asAdmin("/api/admin/blog/category", { method: "POST", json: { name: short(60), slug: "pwned-cat" } }),
  );
  await ok(
    "post",
    await app.asAdmin("/api/admin/blog/post", {
      method: "POST",
      json: postInput({
        title: short(200),
        slug: "pwned-post",
        content: `<p>${payload}</p><h2>${payload}</h2>`,
        excerpt: short(500),
        category: "pwned-cat",
        metaDescription: short(300),
        metaKeywords: short(300),
        published: true,
      }),
    }),
  );
  await ok(
    "offer",
    await app.asAdmin("/api/admin/affiliate-offer", {
      method: "POST",
      json: offerInput({ title: short(200), description: payload, linkText: short(60), moduleId: 1 }),
    }),
  );
  await ok(
    "product",
    await app.asAdmin("/api/admin/recommended-product", {
      method: "POST",
      json: productInput({
        id: "pwned_product",
        name: `P ${short(110)}`,
        description: `Described: ${short(500)}`,
        price: short(40),
        isDefault: true,
        moduleId: 1,
      }),
    }),
  );
  // Site pages have no admin form: a row written by other means, with the brand token in
  // its title, description and body.
  app.sqlite
    .query("UPDATE site_pages SET title = ?, description = ?, body = ? WHERE slug IN ('terms', 'privacy')")
    .run(
      `{{brand}} ${short(100)}`,
      `About {{brand}}: ${short(200)}`,
      `<p>Welcome to {{brand}}.</p><p>${payload}</p><p>Contact: {{contact}}</p>`,
    );
}

const PAGES = [
  "/",
  "/blog",
  "/blog?category=pwned-cat",
  "/blog/pwned-post",
  "/terms",
  "/privacy",
  "/learn",
  "/learn/1",
  "/resources",
  "/learn-more",
  "/quiz",
  "/quiz/starter-kit?quizId=none",
  "/no-such-page",
];

const PAYLOADS = [
  "<script>window.pwned=1</script>",
  '"><img src=x onerror="window.pwned=1">',
  '<meta http-equiv=refresh content="0;url=//pwned.example">',
  "</title><script>window.pwned=1</script>",
  "</script><script>window.pwned=1</script><!--",
  "<pwned-tag>x</pwned-tag>",
  "' onmouseover='window.pwned=1' x='",
  '<svg onload="window.pwned=1"><pwned-tag/></svg>',
  "]]><pwned-tag/><![CDATA[ pwned",
  "&lt;pwned-tag&gt; &amp;lt; &#60;pwned-tag&#62;",
  "{{brand}} {{contact}} \u2028\u2029 pwned",
  '<iframe src="https://pwned.example/"></iframe>',
  '<a href="javascript:window.pwned=1">pwned</a>',
  '<base href="https://pwned.example/">',
  "<!-- pwned --><style>*{display:none}</style>",
  '<form action="https://pwned.example"><input name=x></form>',
];

describe("hostile text stored through the admin API stays text", () => {
  test.each(PAYLOADS)("%s", async (payload) => {
    const app = await adminApp(SITE);
    await storeEverywhere(app, payload);
    for (const path of PAGES) {
      const res = await app.request(path);
      expect([path, res.status < 500]).toEqual([path, true]);
      expectNoInjection(path, await res.text());
    }
    // The brand shows as the admin typed it, as text: escaped, not dropped.
    const terms = parseHtml(await (await app.request("/terms")).text());
    expect(terms.title).toContain(payload.slice(0, 60));
    expect(terms.querySelector("main")!.textContent).toContain(`Welcome to ${payload.slice(0, 60)}.`);
    const post = parseHtml(await (await app.request("/blog/pwned-post")).text());
    const jsonLd = JSON.parse(post.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(jsonLd[0].headline).toBe(payload.slice(0, 200));
    // Feeds and the sitemap (its index and both parts): well-formed, and the title reads back exactly.
    for (const path of ["/blog/rss.xml", ...SITEMAP]) {
      const xml = await (await ok(path, await app.request(path))).text();
      expect([path, xmlProblems(xml)]).toEqual([path, []]);
    }
    const rss = await (await app.request("/blog/rss.xml")).text();
    const titles: string[] = [];
    const parser = new SaxesParser();
    let inTitle = false;
    parser.on("opentag", (tag) => {
      inTitle = tag.name === "title";
      if (inTitle) titles.push("");
    });
    parser.on("text", (text) => {
      if (inTitle) titles[titles.length - 1] += text;
    });
    parser.on("closetag", () => {
      inTitle = false;
    });
    parser.write(rss).close();
    expect(titles).toContain(payload.slice(0, 200));
    expect(titles[0]).toBe(`${payload.slice(0, 60)} Blog`);
  });

  test("the brand cannot redirect visitors from /terms and /privacy with a meta refresh", async () => {
    const app = await adminApp(SITE);
    await ok(
      "settings",
      await app.asAdmin("/api/admin/settings", {
        method: "PUT",
        json: settingsInput({ brandName: '<meta http-equiv="refresh" content="0;url=//pwned.example">' }),
      }),
    );
    for (const path of ["/terms", "/privacy"]) {
      const doc = parseHtml(await (await app.request(path)).text());
      expect(doc.querySelector("meta[http-equiv]")).toBeNull();
      expect(doc.querySelector("main")!.textContent).toContain('<meta http-equiv="refresh"');
    }
  });
});

// Characters XML 1.0 cannot hold (even escaped), and that nobody types on purpose.
const UNSHOWABLE: [string, string][] = [
  ["U+0000", "\u0000"],
  ["U+0001", "\u0001"],
  ["U+0008", "\u0008"],
  ["U+000B", "\u000B"],
  ["U+000C", "\u000C"],
  ["U+001B", "\u001B"],
  ["U+001F", "\u001F"],
  ["U+FFFE", "\uFFFE"],
  ["U+FFFF", "\uFFFF"],
  ["U+D800", "\uD800"],
  ["U+DFFF", "\uDFFF"],
];

describe("control characters are refused at admin input, at the field", () => {
  test.each(UNSHOWABLE)("%s", async (code, char) => {
    const app = await adminApp(SITE);
    const bad = `Bad ${char} text`;
    const cases: [string, string, string, unknown, string][] = [
      ["PUT", "/api/admin/settings", "brandName", settingsInput({ brandName: bad }), "site_settings"],
      [
        "PUT",
        "/api/admin/settings",
        "platformB.name",
        settingsInput({ platformB: { name: bad, url: "https://b.example" } }),
        "site_settings",
      ],
      ["POST", "/api/admin/blog/post", "title", postInput({ title: bad }), "blog_posts"],
      ["POST", "/api/admin/blog/post", "excerpt", postInput({ excerpt: bad }), "blog_posts"],
      ["POST", "/api/admin/blog/post", "content", postInput({ content: `<p>${bad}</p>` }), "blog_posts"],
      ["POST", "/api/admin/blog/category", "name", { name: bad, slug: "bad-cat" }, "blog_categories"],
      ["POST", "/api/admin/affiliate-offer", "title", offerInput({ title: bad }), "affiliate_offers"],
      [
        "POST",
        "/api/admin/recommended-product",
        "description",
        productInput({ description: `A longer ${bad}` }),
        "recommended_products",
      ],
    ];
    for (const [method, path, field, json, table] of cases) {
      const before = app.sqlite.query(`SELECT * FROM ${table}`).all();
      const res = await app.asAdmin(path, { method, json });
      const body = await res.json();
      expect([field, res.status]).toEqual([field, 422]);
      expect(body.details).toContainEqual({
        field,
        message: `Contains an invisible control character (${code}): remove it`,
      });
      expect(app.sqlite.query(`SELECT * FROM ${table}`).all()).toEqual(before);
    }
  });

  test("tabs, line breaks, emoji and other printable characters are accepted", async () => {
    const app = await adminApp(SITE);
    const text = "Tab\tline\nbreak\r\nemoji 😀 DEL\u007f NEL\u0085 nbsp\u00a0 rtl\u202e";
    const res = await app.asAdmin("/api/admin/blog/post", {
      method: "POST",
      json: postInput({ title: text, excerpt: text, content: `<p>${text}</p>` }),
    });
    expect(res.status).toBe(201);
    expect(xmlProblems(await (await app.request("/blog/rss.xml")).text())).toEqual([]);
  });
});

describe("rows written by other means: the feed and the sitemap stay well-formed", () => {
  test.each(UNSHOWABLE)("%s in a stored title, excerpt, category, slug and brand", async (code, char) => {
    const app = await adminApp(SITE);
    await ok(
      "post",
      await app.asAdmin("/api/admin/blog/post", { method: "POST", json: postInput({ slug: "stored-by-sql" }) }),
    );
    app.sqlite.query("INSERT INTO blog_categories (name, slug) VALUES (?, ?)").run(`Cat ${char}`, `cat${char}`);
    app.sqlite
      .query("UPDATE blog_posts SET title = ?, excerpt = ?, category = ?, slug = ? WHERE slug = 'stored-by-sql'")
      .run(`Title ${char} & <b>`, `Excerpt ${char}`, `cat${char}`, `slug${char}<&>`);
    app.sqlite.query("UPDATE site_settings SET brand_name = ?").run(`Brand ${char}`);
    for (const path of ["/blog/rss.xml", ...SITEMAP]) {
      const res = await app.request(path);
      expect([code, path, res.status]).toEqual([code, path, 200]);
      expect([code, path, xmlProblems(await res.text())]).toEqual([code, path, []]);
    }
    // (SQLite itself stores an unpaired surrogate as U+FFFD, which XML can hold.)
    const rss = await (await app.request("/blog/rss.xml")).text();
    expect(rss).toMatch(/<title>Title \uFFFD? &amp; &lt;b&gt;<\/title>/);
    expect(rss).toMatch(/<title>Brand \uFFFD? Blog<\/title>/);
    for (const path of ["/", "/blog"]) expect((await app.request(path)).status).toBe(200);
  });
});
