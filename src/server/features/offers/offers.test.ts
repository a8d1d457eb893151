import { expect } from "bun:test";
import { MODULE_IDS } from "#shared/features/course/constants.ts";
import { createOffer } from "#tests/support/factories.ts";
import { runScenarios, type Scenario } from "#tests/support/scenario.ts";

const PUBLIC_FIELDS = [
  "description",
  "descriptionHtml",
  "embedCode",
  "id",
  // The picture's size and smaller copies when it is an upload the library knows (else null).
  "imageFit",
  "imageUrl",
  "linkText",
  "linkUrl",
  "title",
  "useEmbed",
  "videoUrl",
];
const titles = (offers: { title: string }[]) => offers.map((o) => o.title);

runScenarios("GET /api/module/:id/affiliate-offers", [
  ...MODULE_IDS.map(
    (id): Scenario => ({
      name: `the seed gives module ${id} at least one active offer, public fields only`,
      seed: true,
      path: `/api/module/${id}/affiliate-offers?fullRandom=true&t=${Date.now()}`,
      status: 200,
      responseHeaders: { "cache-control": /^no-store$/ },
      check: (res) => {
        const offers = res.json<object[]>();
        expect(offers.length).toBeGreaterThanOrEqual(1);
        for (const offer of offers) expect(Object.keys(offer).sort()).toEqual(PUBLIC_FIELDS);
      },
    }),
  ),
  {
    name: "only active offers of that module, newest first",
    path: "/api/module/3/affiliate-offers",
    setup: async ({ db }) => {
      await createOffer(db, { title: "Older", moduleId: 3, createdAt: new Date("2025-01-01") });
      await createOffer(db, { title: "Hidden", moduleId: 3, isActive: false, createdAt: new Date("2030-01-01") });
      await createOffer(db, { title: "Newest", moduleId: 3, createdAt: new Date("2030-01-01") });
      await createOffer(db, { title: "Other module", moduleId: 4 });
    },
    status: 200,
    check: (res) => expect(titles(res.json())).toEqual(["Newest", "Older"]),
  },
  {
    name: "fullRandom returns the same set in random order",
    path: "/api/module/7/affiliate-offers",
    setup: async ({ db }) => {
      for (let i = 0; i < 7; i++) await createOffer(db, { title: `Extra ${i}`, moduleId: 7 });
    },
    status: 200,
    check: async (res, api) => {
      const ordered = res.json<{ id: number }[]>().map((o) => o.id);
      const orders = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const ids = (await api.check({ path: "/api/module/7/affiliate-offers?fullRandom=true", status: 200 }))
          .json<{ id: number }[]>()
          .map((o) => o.id);
        expect([...ids].sort()).toEqual([...ordered].sort());
        orders.add(ids.join());
      }
      // 7 offers: twenty shuffles that all came out the same would be a broken shuffle.
      expect(orders.size).toBeGreaterThan(1);
    },
  },
  {
    name: "a module with no active offers answers an empty list",
    path: "/api/module/9/affiliate-offers?fullRandom=true",
    setup: ({ db }) => createOffer(db, { moduleId: 9, isActive: false }),
    status: 200,
    json: [],
  },
  ...["abc", "0", "11", "-1", "1.5", "01", "%20", "99999999999"].map(
    (id): Scenario => ({
      name: `module id ${JSON.stringify(id)}: 422 with a clear message`,
      path: `/api/module/${id}/affiliate-offers`,
      status: 422,
      contains: ["Module id must be a whole number from 1 to 10."],
    }),
  ),
  ...["POST", "PUT", "DELETE"].map(
    (method): Scenario => ({
      name: `${method} is not allowed: nothing changes`,
      method,
      path: "/api/module/1/affiliate-offers",
      body: {},
      setup: ({ db }) => createOffer(db),
      status: 404,
      unchanged: ["affiliate_offers"],
    }),
  ),
]);

const EMBED = '<p>Hello</p><script>document.body.dataset.isolated = "yes"</script>';

runScenarios("GET /embed/offer/:id", [
  {
    name: "serves an active embed offer's code in a sandboxed document",
    path: "/embed/offer/{id}",
    setup: async ({ db }) => ({ id: (await createOffer(db, { useEmbed: true, embedCode: EMBED })).id }),
    status: 200,
    // A valid document of its own: a language and a title.
    contains: ["<script>", '<html lang="en">', "<title>Sponsored offer</title>"],
    responseHeaders: { "x-content-type-options": /^nosniff$/ },
    check: (res) => {
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toStartWith("sandbox allow-scripts allow-popups");
      expect(csp).not.toContain("allow-same-origin");
      expect(csp).toContain("frame-ancestors 'self'");
    },
  },
  ...(
    [
      ["an offer without embed code", "{id}", 404],
      ["an unknown offer", "999", 404],
      ["a non-numeric id", "abc", 422],
    ] as const
  ).map(
    ([name, id, status]): Scenario => ({
      name: `${name}: no embed`,
      path: `/embed/offer/${id}`,
      setup: async ({ db }) => ({ id: (await createOffer(db)).id }),
      status,
      // The site's own strict policy, not the embed document's.
      responseHeaders: { "content-security-policy": /^default-src 'self'/ },
    }),
  ),
  {
    name: "an inactive embed offer is not served",
    path: "/embed/offer/{id}",
    setup: async ({ db }) => ({
      id: (await createOffer(db, { useEmbed: true, embedCode: EMBED, isActive: false })).id,
    }),
    status: 404,
  },
]);
