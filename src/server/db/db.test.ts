import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureAdmin, loadJwtSecret, resetAdminPassword } from "#server/features/auth/bootstrap.ts";
import { getSettings } from "#server/features/settings/service.ts";
import { applyMigrations, openDatabase, openMemoryDatabase } from "./client.ts";
import { content } from "./content.ts";
import { describeSeed, seedDatabase } from "./seed.ts";

describe("database", () => {
  test("a file database opens with WAL, foreign keys, NORMAL sync and a busy timeout", () => {
    const dir = mkdtempSync(join(tmpdir(), "cam-guide-db-"));
    try {
      const handle = openDatabase(join(dir, "app.db"));
      applyMigrations(handle);
      const pragma = (name: string) => Object.values(handle.sqlite.query(`PRAGMA ${name}`).get() as object)[0];
      expect(pragma("journal_mode")).toBe("wal");
      expect(pragma("foreign_keys")).toBe(1);
      expect(pragma("synchronous")).toBe(1); // NORMAL
      expect(pragma("busy_timeout")).toBe(5000);
      handle.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("migrations create every table the site stores", () => {
    const { sqlite } = openMemoryDatabase();
    const tables = (
      sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((t) => t.name);
    for (const table of [
      "quiz_results",
      "earnings_results",
      "blog_posts",
      "blog_categories",
      "affiliate_offers",
      "recommended_products",
      "admin_users",
      "site_settings",
      "site_pages",
    ]) {
      expect(tables).toContain(table);
    }
  });

  test("migrations are safe to apply twice", () => {
    const handle = openMemoryDatabase();
    expect(() => applyMigrations(handle)).not.toThrow();
  });

  test("the schema enforces its rules", () => {
    const { sqlite } = openMemoryDatabase();
    expect(() =>
      sqlite.run(
        "INSERT INTO affiliate_offers (title, description, link_url, module_id) VALUES ('t', 'd', 'https://x', 11)",
      ),
    ).toThrow();
    sqlite.run("INSERT INTO blog_categories (name, slug) VALUES ('Tips', 'tips')");
    sqlite.run("INSERT INTO blog_posts (title, slug, content, category) VALUES ('A', 'a', '<p>x</p>', 'tips')");
    expect(() => sqlite.run("INSERT INTO blog_posts (title, slug, content) VALUES ('B', 'a', 'x')")).toThrow();
    // Deleting a category leaves its posts Uncategorized.
    sqlite.run("DELETE FROM blog_categories WHERE slug = 'tips'");
    expect(sqlite.query("SELECT category FROM blog_posts WHERE slug = 'a'").get()).toEqual({ category: null });
  });
});

describe("seed", () => {
  test("loads the content once; a second run adds nothing", async () => {
    const handle = openMemoryDatabase();
    const first = await seedDatabase(handle);
    expect(first).toEqual({
      siteSettings: 1,
      sitePages: content.sitePages.length,
      products: content.products.length,
      offers: content.offers.length,
      blogCategories: content.blogCategories.length,
      blogPosts: content.blogPosts.length,
      // One managed link for each platform, offer and product.
      links: 2 + content.offers.length + content.products.length,
    });
    expect(describeSeed(first)).toContain("added 1 siteSettings");
    const second = await seedDatabase(handle);
    expect(second).toEqual({});
    expect(describeSeed(second)).toContain("nothing to add");
    expect(handle.sqlite.query("SELECT count(*) AS n FROM site_pages").get()).toEqual({ n: content.sitePages.length });
  });

  test("never overwrites what the admin changed", async () => {
    const handle = openMemoryDatabase();
    await seedDatabase(handle);
    handle.sqlite.run("UPDATE site_settings SET brand_name = 'Mine' WHERE id = 1");
    await seedDatabase(handle);
    expect((await getSettings(handle.db)).brandName).toBe("Mine");
  });

  test("what the admin deleted or renamed stays so: a later seed adds nothing back", async () => {
    const handle = openMemoryDatabase();
    await seedDatabase(handle);
    const count = (table: string) =>
      (handle.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    handle.sqlite.run("DELETE FROM blog_posts WHERE slug = ?", [content.blogPosts[0]!.slug]);
    handle.sqlite.run("DELETE FROM recommended_products WHERE id = ?", [content.products[0]!.id]);
    handle.sqlite.run("UPDATE affiliate_offers SET title = 'Renamed' WHERE title = ?", [content.offers[0]!.title]);
    const before = ["blog_posts", "recommended_products", "affiliate_offers"].map(count);
    expect(await seedDatabase(handle)).toEqual({});
    expect(["blog_posts", "recommended_products", "affiliate_offers"].map(count)).toEqual(before);
    expect(
      handle.sqlite.query("SELECT count(*) AS n FROM affiliate_offers WHERE title = ?").get(content.offers[0]!.title),
    ).toEqual({ n: 0 });
  });

  test("a seed that fails halfway leaves nothing behind", async () => {
    const handle = openMemoryDatabase();
    // The last step fails: module 11 breaks the offers' CHECK constraint.
    const broken = {
      ...content,
      offers: [...content.offers, { ...content.offers[0]!, title: "Broken", moduleId: 11 }],
    };
    await expect(seedDatabase(handle, broken)).rejects.toThrow(/CHECK/);
    for (const table of [
      "site_settings",
      "site_pages",
      "recommended_products",
      "blog_categories",
      "blog_posts",
      "affiliate_offers",
    ]) {
      expect(handle.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    }
  });

  test("the operator note is stripped from page bodies", () => {
    for (const page of content.sitePages) expect(page.body).not.toContain("<!--");
  });
});

describe("admin bootstrap", () => {
  test("creates the admin once with an argon2id hash; a generated password is returned to print", async () => {
    const { db, sqlite } = openMemoryDatabase();
    const result = await ensureAdmin(db, "admin", null);
    expect(result.created).toBe(true);
    const password = result.created ? result.generatedPassword! : "";
    expect(password.length).toBeGreaterThanOrEqual(20);
    const row = sqlite.query("SELECT password_hash AS hash FROM admin_users").get() as { hash: string };
    expect(row.hash).toStartWith("$argon2id$");
    expect(await Bun.password.verify(password, row.hash)).toBe(true);
    expect(await ensureAdmin(db, "admin", null)).toEqual({ created: false });
  });

  test("uses ADMIN_PASSWORD when given and prints nothing", async () => {
    const { db } = openMemoryDatabase();
    expect(await ensureAdmin(db, "owner", "a-strong-password")).toEqual({
      created: true,
      username: "owner",
      generatedPassword: null,
    });
  });

  test("reset-password replaces the hash and ends existing sessions", async () => {
    const { db, sqlite } = openMemoryDatabase();
    await ensureAdmin(db, "admin", "first-password-123");
    const { generatedPassword } = await resetAdminPassword(db, "admin", null);
    const row = sqlite.query("SELECT password_hash AS hash, token_version AS v FROM admin_users").get() as {
      hash: string;
      v: number;
    };
    expect(await Bun.password.verify(generatedPassword!, row.hash)).toBe(true);
    expect(await Bun.password.verify("first-password-123", row.hash)).toBe(false);
    expect(row.v).toBe(1);
  });

  test("the JWT secret is generated once and kept in the data directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "cam-guide-secret-"));
    try {
      const first = loadJwtSecret(dir, null);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(loadJwtSecret(dir, null)).toBe(first);
      expect(loadJwtSecret(dir, "configured-secret-configured-secret")).toBe("configured-secret-configured-secret");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
