// The sitemap as an index of parts (docs/decisions/087-sitemap-index.md): /sitemap.xml lists
// /sitemap-pages.xml and /sitemap-posts-<n>.xml, each part at most SITEMAP_PART_SIZE posts. The
// tables run on SQLite and again on PostgreSQL (scripts/test-postgres.ts runs every scenario).
// Splitting is proved with parts of three posts: the same routes on a small app over the
// scenario's database, given a small part size.
import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { createPost, createSitePage } from "#tests/support/factories.ts";
import { runScenarios, type Scenario } from "#tests/support/scenario.ts";
import { readSitemap } from "#tests/support/sitemap.ts";
import { seoRoutes } from "./routes.ts";
import { SITEMAP_PART_SIZE } from "./service.ts";

const SITE = "https://guide.example.com";
const day = (d: number) => new Date(Date.UTC(2026, 1, d, 12));
/** A publish date no test reaches: the post is scheduled. */
const LATER = new Date("2099-01-01T00:00:00Z");

test("a part holds at most the sitemap protocol's 50,000 addresses", () => {
  expect(SITEMAP_PART_SIZE).toBe(50_000);
});

test.each([0, -3, 2.5, Number.NaN])("a part size of %p is refused when the routes are made", (size) => {
  const options = { publicBase: async () => SITE, contentDate: day(1), now: () => new Date(), sitemapPartSize: size };
  expect(() => seoRoutes({} as Db, options)).toThrow("A sitemap part holds a whole number of posts from 1");
});

runScenarios("the sitemap's index and its parts", [
  {
    name: "the index lists the pages' part and the posts' part, each dated by the newest address inside it",
    app: { publicUrl: SITE },
    setup: async ({ db }) => {
      await createPost(db, { slug: "older", updatedAt: day(3) });
      // Newer than any build of the site: /blog and the pages' part take its day.
      await createPost(db, { slug: "far-ahead", updatedAt: new Date("2098-05-06T10:00:00Z") });
      await createSitePage(db, { slug: "about-us", updatedAt: day(9) });
    },
    path: "/sitemap.xml",
    status: 200,
    responseHeaders: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=300" },
    check: async (_res, { request }) => {
      const sitemap = await readSitemap(request, SITE);
      expect(sitemap.parts.map((p) => [p.loc, p.lastmod])).toEqual([
        [`${SITE}/sitemap-pages.xml`, "2098-05-06"],
        [`${SITE}/sitemap-posts-1.xml`, "2098-05-06"],
      ]);
      const [pages, posts] = sitemap.parts;
      const pageLocs = pages!.urls.map((u) => u.loc);
      for (const path of ["/", "/quiz", "/learn", "/learn/1", "/learn/10", "/blog", "/terms", "/about-us"])
        expect(pageLocs).toContain(`${SITE}${path}`);
      expect(pageLocs.filter((l) => l.includes("/blog/"))).toEqual([]);
      expect(pages!.urls.find((u) => u.loc === `${SITE}/blog`)!.lastmod).toBe("2098-05-06");
      expect(pages!.urls.find((u) => u.loc === `${SITE}/about-us`)!.lastmod).toBe("2026-02-09");
      expect(posts!.urls).toEqual([
        { loc: `${SITE}/blog/older`, lastmod: "2026-02-03" },
        { loc: `${SITE}/blog/far-ahead`, lastmod: "2098-05-06" },
      ]);
    },
  },
  {
    name: "the pages' part lists what the sitemap listed before posts: the pages, the modules, added pages once",
    app: { publicUrl: SITE },
    setup: ({ db }) => createSitePage(db, { slug: "terms", title: "Terms of Service" }),
    path: "/sitemap-pages.xml",
    status: 200,
    responseHeaders: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=300" },
    check: async (_res, { request }) => {
      const { locs } = await readSitemap(request, SITE);
      const modules = Array.from({ length: 10 }, (_, i) => `/learn/${i + 1}`);
      const pages = [
        "/",
        "/quiz",
        "/quiz/earnings",
        "/learn",
        "/learn-more",
        "/learn/complete",
        "/resources",
        "/blog",
        "/terms",
        "/privacy",
      ];
      // The built-in /terms the admin edited is not listed a second time as an added page.
      expect(locs).toEqual([...pages, ...modules].map((p) => `${SITE}${p}`));
    },
  },
  {
    name: "with no public post the index lists only the pages' part; drafts and scheduled posts are nowhere",
    app: { publicUrl: SITE },
    setup: async ({ db }) => {
      await createPost(db, { slug: "a-draft", published: false });
      await createPost(db, { slug: "a-scheduled-one", publishAt: LATER });
    },
    path: "/sitemap.xml",
    status: 200,
    notContains: ["sitemap-posts"],
    check: async (_res, { request }) => {
      const sitemap = await readSitemap(request, SITE);
      expect(sitemap.parts.map((p) => p.path)).toEqual(["/sitemap-pages.xml"]);
      expect(sitemap.text).not.toContain("a-draft");
      expect(sitemap.text).not.toContain("a-scheduled-one");
      expect((await request("/sitemap-posts-1.xml")).status).toBe(404);
    },
  },
  {
    name: "the posts' part lists public posts only, never a draft or a post scheduled for later",
    app: { publicUrl: SITE },
    setup: async ({ db }) => {
      await createPost(db, { slug: "public-one" });
      await createPost(db, { slug: "a-draft", published: false });
      await createPost(db, { slug: "a-scheduled-one", publishAt: LATER });
      await createPost(db, { slug: "was-scheduled", publishAt: day(1) });
    },
    path: "/sitemap-posts-1.xml",
    status: 200,
    contains: [`<loc>${SITE}/blog/public-one</loc>`, `<loc>${SITE}/blog/was-scheduled</loc>`],
    notContains: ["a-draft", "a-scheduled-one"],
  },
  {
    name: "addresses are escaped: the index and every part stay well-formed XML",
    app: { publicUrl: SITE },
    setup: async ({ db }) => {
      // Written by other means than the admin's forms, which refuse such slugs.
      await createSitePage(db, { slug: "a&b<c>'d\"" });
      await createPost(db, { slug: "tips & <tricks>" });
    },
    path: "/sitemap.xml",
    status: 200,
    check: async (_res, { request }) => {
      const sitemap = await readSitemap(request, SITE);
      expect(sitemap.locs).toContain(`${SITE}/a&b<c>'d"`);
      expect(sitemap.locs).toContain(`${SITE}/blog/tips%20%26%20%3Ctricks%3E`);
      expect(sitemap.text).toContain(`<loc>${SITE}/a&amp;b&lt;c&gt;&apos;d&quot;</loc>`);
    },
  },
]);

/** A part the site does not have: the same short 404 as every absent answer, never a page. */
const noSuchPart = (path: string, name: string): Scenario => ({
  name,
  app: { publicUrl: SITE },
  setup: async ({ db }) => {
    for (let i = 0; i < 2; i++) await createPost(db);
  },
  path,
  status: 404,
  contains: ["No such part of the sitemap"],
  responseHeaders: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
});

runScenarios("a part of the sitemap the site does not have", [
  noSuchPart("/sitemap-posts-2.xml", "beyond the last part"),
  noSuchPart("/sitemap-posts-0.xml", "part 0"),
  noSuchPart("/sitemap-posts-01.xml", "a leading zero"),
  noSuchPart("/sitemap-posts-x.xml", "not a number"),
  noSuchPart("/sitemap-posts--1.xml", "a negative number"),
  noSuchPart("/sitemap-posts-1.5.xml", "a fraction"),
  noSuchPart("/sitemap-posts-1e0.xml", "an exponent"),
  noSuchPart("/sitemap-posts-%31.xml", "an escaped digit"),
  noSuchPart("/sitemap-posts-.xml", "no number"),
  noSuchPart("/sitemap-posts-1", "no .xml"),
  noSuchPart("/sitemap-posts-1.xml/more", "a longer path"),
  noSuchPart("/sitemap-posts-99999999999999999999.xml", "a number past the largest exact one"),
  noSuchPart("/sitemap-posts-9007199254740991.xml", "the largest exact number (its offset is not exact)"),
]);

/** Without a public address: the sitemap's every address answers the same 404, saying why. */
const WITHOUT_ADDRESS = ["/sitemap.xml", "/sitemap-pages.xml", "/sitemap-posts-1.xml", "/sitemap-posts-0.xml"];

runScenarios(
  "the sitemap without a known public address",
  WITHOUT_ADDRESS.map((path) => ({
    name: `${path} is not served, and says why`,
    setup: ({ db }: { db: Db }) => createPost(db),
    path,
    status: 404,
    contains: ["The sitemap needs the site's public address"],
    notContains: ["<"],
    responseHeaders: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    check: async (res, { request }) => {
      // Word for word the index's answer: a part tells nothing the index does not.
      expect(res.text).toBe(await (await request("/sitemap.xml")).text());
    },
  })),
);

// Splitting, with parts of three posts: the same routes on a small app over the scenario's
// database (set up by each scenario before its first request).
const SMALL = 3;
let partsApp: { handle: (request: Request) => Response | Promise<Response> } | null = null;

function smallParts(db: Db) {
  partsApp = new Elysia().use(
    seoRoutes(db, {
      publicBase: async () => SITE,
      contentDate: day(1),
      now: () => new Date(),
      sitemapPartSize: SMALL,
    }),
  );
}

/** `count` public posts made in order, post-1 dated Feb 1, post-2 Feb 2…; drafts and scheduled ones between them. */
async function postsWithHiddenOnesBetween(db: Db, count: number) {
  for (let i = 1; i <= count; i++) {
    await createPost(db, { slug: `post-${i}`, updatedAt: day(i) });
    if (i % 2 === 0) await createPost(db, { slug: `draft-${i}`, published: false, updatedAt: day(28) });
    if (i % 3 === 0) await createPost(db, { slug: `scheduled-${i}`, publishAt: LATER, updatedAt: day(28) });
  }
}

/** Every public post once, in parts of at most SMALL, in order; nothing hidden. */
async function expectSplit(request: (path: string) => Promise<Response>, count: number) {
  const sitemap = await readSitemap(request, SITE);
  const parts = Math.ceil(count / SMALL);
  const postParts = sitemap.parts.slice(1);
  expect(sitemap.parts[0]!.path).toBe("/sitemap-pages.xml");
  expect(postParts.map((p) => p.path)).toEqual(Array.from({ length: parts }, (_, i) => `/sitemap-posts-${i + 1}.xml`));
  for (const part of postParts) expect(part.urls.length).toBeLessThanOrEqual(SMALL);
  const posts = postParts.flatMap((p) => p.urls.map((u) => u.loc));
  expect(posts).toEqual(Array.from({ length: count }, (_, i) => `${SITE}/blog/post-${i + 1}`));
  // Each part dated by its newest post: the last of its run, as the posts were dated in order.
  expect(postParts.map((p) => p.lastmod)).toEqual(
    Array.from({ length: parts }, (_, i) => `2026-02-${String(Math.min((i + 1) * SMALL, count)).padStart(2, "0")}`),
  );
  expect(sitemap.text).not.toMatch(/draft-|scheduled-/);
  expect((await request(`/sitemap-posts-${parts + 1}.xml`)).status).toBe(404);
  return sitemap;
}

runScenarios(
  `the sitemap in parts of ${SMALL} posts`,
  [
    {
      name: "7 posts: three parts of 3, 3 and 1, every post once",
      setup: async ({ db }) => {
        smallParts(db);
        await postsWithHiddenOnesBetween(db, 7);
      },
      path: "/sitemap.xml",
      status: 200,
      check: async (_res, { request }) => {
        const sitemap = await expectSplit(request, 7);
        expect(sitemap.parts.slice(1).map((p) => p.urls.length)).toEqual([3, 3, 1]);
      },
    },
    {
      name: "6 posts: exactly two full parts, no empty third",
      setup: async ({ db }) => {
        smallParts(db);
        await postsWithHiddenOnesBetween(db, 6);
      },
      path: "/sitemap.xml",
      status: 200,
      check: async (_res, { request }) => {
        const sitemap = await expectSplit(request, 6);
        expect(sitemap.parts.slice(1).map((p) => p.urls.length)).toEqual([3, 3]);
      },
    },
    {
      name: "4 posts: the second part's own address lists the fourth alone",
      setup: async ({ db }) => {
        smallParts(db);
        await postsWithHiddenOnesBetween(db, 4);
      },
      path: "/sitemap-posts-2.xml",
      status: 200,
      contains: [`<loc>${SITE}/blog/post-4</loc><lastmod>2026-02-04</lastmod>`],
      notContains: ["post-1<", "post-2<", "post-3<", "draft-", "scheduled-"],
      check: async (_res, { request }) => {
        await expectSplit(request, 4);
      },
    },
    {
      name: "no public post: the pages' part only",
      setup: async ({ db }) => {
        smallParts(db);
        await createPost(db, { slug: "draft-only", published: false });
      },
      path: "/sitemap.xml",
      status: 200,
      check: async (_res, { request }) => {
        await expectSplit(request, 0);
      },
    },
  ],
  { handle: (request) => partsApp!.handle(request) },
);
