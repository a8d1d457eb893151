import { describe, expect, test } from "bun:test";
import type { Query } from "@tanstack/react-query";
import { publicReads } from "#server/public-reads.ts";
import { blogCategoriesRead, blogPostRead, blogPostsRead, blogRelatedRead } from "#shared/features/blog/reads.ts";
import { moduleOffersRead } from "#shared/features/offers/reads.ts";
import { productsRead } from "#shared/features/products/reads.ts";
import { settingsRead } from "#shared/features/settings/reads.ts";
import { sitePageRead } from "#shared/features/site-pages/reads.ts";
import { adminApi, adminKey, at, authApi, uploadApi } from "./admin-client.ts";
import { refreshAfter, SHOWN_IN } from "./admin-refresh.ts";

/** The queries a dashboard may hold: admin routes' keys and public reads' keys. */
const QUERIES = {
  posts: adminKey(adminApi.blog.posts, { page: 2, q: "light" }),
  post: adminKey(at(adminApi.blog.post, { id: 5 })),
  categoryPosts: adminKey(adminApi.blog["category-posts"]),
  offers: adminKey(adminApi["affiliate-offers"]),
  products: adminKey(adminApi["recommended-products"]),
  links: adminKey(adminApi.links),
  analytics: adminKey(adminApi.analytics, { days: 30 }),
  settings: adminKey(adminApi.settings),
  address: adminKey(adminApi.settings.address),
  linkChecks: adminKey(adminApi.settings["link-checks"]),
  retention: adminKey(adminApi.settings["result-retention"]),
  account: adminKey(adminApi.account),
  home: adminKey(adminApi.home),
  backups: adminKey(adminApi.backups),
  media: adminKey(adminApi.media),
  sitePages: adminKey(adminApi["site-pages"]),
  sitePage: adminKey(at(adminApi["site-page"], { slug: "terms" })),
  session: adminKey(authApi.me),
  blogPosts: [blogPostsRead.key()],
  categories: [blogCategoriesRead.key()],
  blogPost: [blogPostRead.key({ slug: "a-post" })],
  related: [blogRelatedRead.key({ slug: "a-post" })],
  moduleOffers: [moduleOffersRead.key({ id: 2 }, { fullRandom: "true", t: "1" })],
  publicProducts: [productsRead.key({ archetype: "The Performer" })],
  publicSettings: [settingsRead.key()],
  legalPage: [sitePageRead.key({ slug: "terms" })],
};

/** The names of the queries a change sent to `route` refreshes. */
function refreshedBy(route: { "~path": string }): string[] {
  const stale = refreshAfter(route["~path"]);
  return Object.entries(QUERIES)
    .filter(([, queryKey]) => stale({ queryKey } as unknown as Query))
    .map(([name]) => name);
}

describe("a change refreshes what its route changes, and the admin home", () => {
  test.each([
    [
      "a post saved",
      at(adminApi.blog.post, { id: 5 }),
      ["posts", "post", "categoryPosts", "home", "blogPosts", "categories", "blogPost", "related"],
    ],
    [
      "a category added",
      adminApi.blog.category,
      ["posts", "post", "categoryPosts", "home", "blogPosts", "categories", "blogPost", "related"],
    ],
    ["an offer saved", at(adminApi["affiliate-offer"], { id: 1 }), ["offers", "home", "moduleOffers"]],
    ["a product deleted", at(adminApi["recommended-product"], { id: "ring" }), ["products", "home", "publicProducts"]],
    ["a link checked", at(adminApi.links, { id: 7 }).check, ["links", "home"]],
    ["a link made", adminApi.link, ["links", "home"]],
    [
      "the link-check schedule saved",
      adminApi.settings["link-checks"],
      ["settings", "address", "linkChecks", "retention", "home", "publicSettings"],
    ],
    ["two-factor turned off", adminApi.account["two-factor"].disable, ["account", "home"]],
    ["a backup run", adminApi.backups.run, ["home", "backups"]],
    ["an upload", uploadApi, ["home", "media"]],
    ["an alt text", at(adminApi.media, { id: 3 }), ["home", "media"]],
    [
      "a legal page saved",
      at(adminApi["site-page"], { slug: "terms" }),
      ["home", "sitePages", "sitePage", "legalPage"],
    ],
  ])("%s", (_, route, refreshed) => {
    expect(refreshedBy(route)).toEqual(refreshed);
  });

  test("the session check is refreshed by no change (signing in refreshes it itself)", () => {
    const every = [adminApi.blog.post, adminApi.settings, adminApi.account.password, uploadApi, authApi.logout];
    expect(every.filter((route) => refreshedBy(route).includes("session"))).toEqual([]);
  });

  test("each public path the rule names is the start of served reads' paths", () => {
    const paths = publicReads.map(({ read }) => read.path);
    for (const [feature, start] of SHOWN_IN) {
      expect({ feature, start, reads: paths.filter((path) => path.startsWith(start)).length > 0 }).toEqual({
        feature,
        start,
        reads: true,
      });
    }
  });
});
