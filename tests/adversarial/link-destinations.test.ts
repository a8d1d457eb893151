// Every destination the admin can save is one a visitor can follow, and every header the
// compiled executable sends is built from a value in the one form a header may carry.
// - A host that is not public (every spelling of it), an invisible or direction character:
//   refused with 422 at the field, on every path that saves a destination, nothing changed.
// - Every Default_Ignorable_Code_Point (and the characters drawn blank) is refused naming it, in a
//   destination and in the site's claims and disclosure wording: one rule; emoji keep their joiners.
// - Unicode is saved in its ASCII (WHATWG) form; a property test saves random Unicode
//   destinations and follows each /go/<slug>: never a 5xx, every Location ASCII and the saved URL.
// - Rows written straight into the database (an older release, a restore) still redirect
//   correctly, or to the fallback or the page; a source with such a URL does not stop the start.
// - Request targets of raw bytes on every redirecting route, and hostile names where a name
//   goes into a header: never a 5xx, every Location plain ASCII on this site.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AdminLink } from "#shared/features/links/contract.ts";
import { readDestination } from "#shared/features/links/destination.ts";
import { offerInput, productInput } from "#tests/support/admin-inputs.ts";
import { ensureBuilt } from "#tests/support/binary.ts";
import { HIDDEN_CHARACTERS, NOT_PUBLIC_DESTINATIONS } from "#tests/support/hostile-destinations.ts";
import { rawRequest } from "#tests/support/raw-http.ts";
import { type RunningSite, startSite } from "#tests/support/running-site.ts";
import { randomDestination, seededRandom, unicodeText } from "#tests/support/unicode.ts";

type Problem = { details: { field: string; message: string }[] };
const HEADER_SAFE = /^[\x21-\x7E]+$/;

let dir: string;
let dataDir: string;
let site: RunningSite;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "cam-guide-destinations-"));
  dataDir = join(dir, "data");
  site = await startSite(dataDir, { LINK_CHECK_INTERVAL: "off" });
}, 60_000);

afterAll(async () => {
  await site?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens the running site's database, as a restore or an older release would have written it. */
function database<T>(work: (db: Database) => T): T {
  const db = new Database(join(dataDir, "app.db"));
  db.run("PRAGMA busy_timeout = 5000");
  // Only the running server may fold the log into app.db (decision 059): a checkpoint of ours
  // would count as another program writing it.
  db.run("PRAGMA wal_autocheckpoint = 0");
  try {
    return work(db);
  } finally {
    db.close();
  }
}

const json = async <T>(res: Response) => (await res.json()) as T;

describe("refused when saved, at the field, on every path that saves a destination", () => {
  test(`${NOT_PUBLIC_DESTINATIONS.length} hosts that are not public, each through nine paths: 422 at the field, nothing changed`, async () => {
    const made = await site.admin("/api/admin/link", {
      method: "POST",
      json: { slug: "edited", destination: "https://ok.example.com/", active: true },
    });
    expect(made.status).toBe(201);
    const edited = await json<AdminLink>(made);
    const settings = await json<Record<string, unknown> & { platformB: object }>(
      await site.admin("/api/admin/settings"),
    );
    const state = async () => ({
      links: await (await site.admin("/api/admin/links")).text(),
      offers: await (await site.admin("/api/admin/affiliate-offers")).text(),
      products: await (await site.admin("/api/admin/recommended-products")).text(),
      settings: await (await site.admin("/api/admin/settings")).text(),
    });
    const before = await state();
    for (const destination of NOT_PUBLIC_DESTINATIONS) {
      const attempts: [string, string, unknown, string][] = [
        ["POST", "/api/admin/link", { slug: "new-one", destination, active: true }, "destination"],
        [
          "POST",
          "/api/admin/link",
          { slug: "new-two", destination: "https://ok.example.com/", active: true, fallbackDestination: destination },
          "fallbackDestination",
        ],
        ["PUT", `/api/admin/link/${edited.id}`, { destination, active: true }, "destination"],
        [
          "POST",
          "/api/admin/affiliate-offer",
          offerInput({
            linkUrl: undefined,
            linkSlug: "+new",
            newLinkSlug: "offer-new",
            newLinkDestination: destination,
          }),
          "newLinkDestination",
        ],
        ["POST", "/api/admin/affiliate-offer", offerInput({ linkUrl: destination }), "linkUrl"],
        ["POST", "/api/admin/recommended-product", productInput({ link: destination }), "link"],
        [
          "POST",
          "/api/admin/recommended-product",
          productInput({ linkSlug: "+new", newLinkSlug: "product-new", newLinkDestination: destination }),
          "newLinkDestination",
        ],
        ["PUT", "/api/admin/settings", { ...settings, platformA: { name: "A", url: destination } }, "platformA.url"],
        [
          "PUT",
          "/api/admin/settings",
          {
            ...settings,
            platformB: {
              ...settings.platformB,
              linkSlug: "+new",
              newLinkSlug: "b-new",
              newLinkDestination: destination,
            },
          },
          "platformB.newLinkDestination",
        ],
      ];
      for (const [method, path, body, field] of attempts) {
        const res = await site.admin(path, { method, json: body });
        expect([destination, path, res.status]).toEqual([destination, path, 422]);
        const { details } = await json<Problem>(res);
        expect([destination, path, details.map((d) => d.field)]).toEqual([destination, path, [field]]);
        expect(details[0]!.message).toMatch(/host|not a valid web address/);
      }
    }
    expect(await state()).toEqual(before);
  });

  test(`${HIDDEN_CHARACTERS.length} invisible or direction characters, in the host, path, query and fragment: 422 naming the character`, async () => {
    for (const char of HIDDEN_CHARACTERS) {
      const name = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
      for (const destination of [
        `https://exa${char}mple.com/`,
        `https://example.com/a${char}b`,
        `https://example.com/?q=${char}`,
        `https://example.com/#${char}`,
      ]) {
        const res = await site.admin("/api/admin/link", {
          method: "POST",
          json: { slug: "hidden", destination, active: true },
        });
        expect([destination, res.status]).toEqual([destination, 422]);
        const { details } = await json<Problem>(res);
        expect(details[0]).toEqual({ field: "destination", message: expect.stringContaining(name) });
      }
    }
    const links = await json<AdminLink[]>(await site.admin("/api/admin/links"));
    expect(links.map((link) => link.slug)).not.toContain("hidden");
  });
});

describe("every character a reader cannot see, wherever the site refuses them", () => {
  /** Each Default_Ignorable_Code_Point, all of them where they are few, every ninth of the long unassigned runs. */
  const ignorable = (() => {
    const property = /\p{Default_Ignorable_Code_Point}/u;
    const picked: number[] = [];
    let run = 0;
    for (let code = 0; code <= 0x10ffff; code++) {
      if (!property.test(String.fromCodePoint(code))) {
        run = 0;
        continue;
      }
      const last = !property.test(String.fromCodePoint(code + 1));
      if (run < 64 || run % 9 === 0 || last) picked.push(code);
      run++;
    }
    return picked;
  })();
  const named = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;

  test(`${ignorable.length} default-ignorable code points (variation selectors, fillers, tags, unassigned ones) in a destination: 422 naming each`, async () => {
    expect(ignorable.length).toBeGreaterThan(500);
    const wrong: string[] = [];
    for (const code of ignorable) {
      const destination = `https://example.com/a${String.fromCodePoint(code)}b`;
      const res = await site.admin("/api/admin/link", {
        method: "POST",
        json: { slug: "ignorable", destination, active: true },
      });
      const said = res.status === 422 ? (await json<Problem>(res)).details[0] : null;
      if (said?.field !== "destination" || !said.message.includes(named(code)))
        wrong.push(`${named(code)}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
    const links = await json<AdminLink[]>(await site.admin("/api/admin/links"));
    expect(links.map((link) => link.slug)).not.toContain("ignorable");
  });

  test("the site's claims and disclosure wording follow the same rule, naming the character; emoji keep their joiners", async () => {
    const settings = await json<Record<string, unknown>>(await site.admin("/api/admin/settings"));
    const before = await (await site.admin("/api/admin/settings")).text();
    for (const char of [
      ...HIDDEN_CHARACTERS,
      ...[0xfe0f, 0xe0100, 0x2800, 0x16fe4, 0xfffc].map((c) => String.fromCodePoint(c)),
    ]) {
      const name = named(char.codePointAt(0)!);
      const res = await site.admin("/api/admin/settings", {
        method: "PUT",
        json: {
          ...settings,
          bannerClaim: `Trust${char} {platform}`,
          disclosureWording: { linkText: `How we${char} earn` },
        },
      });
      expect([name, res.status]).toEqual([name, 422]);
      const { details } = await json<Problem>(res);
      expect(details).toEqual([
        { field: "bannerClaim", message: expect.stringContaining(name) },
        { field: "disclosureWording.linkText", message: expect.stringContaining(name) },
      ]);
    }
    expect(await (await site.admin("/api/admin/settings")).text()).toBe(before);
    const quote = "Best move I made ❤️ now I stream as 👩🏽‍💻 five nights a week 🏳️‍🌈";
    const saved = await site.admin("/api/admin/settings", {
      method: "PUT",
      json: { ...settings, testimonialQuote: quote },
    });
    expect(saved.status).toBe(200);
    expect(await (await fetch(site.url)).text()).toContain(quote);
  });
});

describe("saved in the form a browser sends, and followed", () => {
  test("the reproduction: Chinese in the path and an umlaut in the query redirect instead of answering 500", async () => {
    const res = await site.admin("/api/admin/link", {
      method: "POST",
      json: { slug: "x", destination: "https://example.com/路径?q=ü", active: true },
    });
    expect(res.status).toBe(201);
    expect((await json<AdminLink>(res)).destination).toBe("https://example.com/%E8%B7%AF%E5%BE%84?q=%C3%BC");
    const go = await fetch(`${site.url}/go/x`, { redirect: "manual" });
    expect([go.status, go.headers.get("location")]).toEqual([302, "https://example.com/%E8%B7%AF%E5%BE%84?q=%C3%BC"]);
  });

  const SEED = 20_250_602;
  test(`property (seed ${SEED}): 200 random Unicode destinations saved and followed, never a 5xx, each Location ASCII and the saved URL`, async () => {
    const next = seededRandom(SEED);
    let saved = 0;
    for (let i = 0; i < 200; i++) {
      const destination = randomDestination(next);
      const res = await site.admin("/api/admin/link", {
        method: "POST",
        json: { slug: `prop-${i}`, destination, active: true },
      });
      expect([destination, res.status === 201 || res.status === 422]).toEqual([destination, true]);
      if (res.status === 422) {
        expect((await json<Problem>(res)).details[0]?.field).toBe("destination");
        continue;
      }
      saved++;
      const link = await json<AdminLink>(res);
      expect(link.destination).toBe(readDestination(destination).url!);
      const go = await fetch(`${site.url}/go/prop-${i}?p=offer`, { redirect: "manual" });
      expect([destination, go.status]).toEqual([destination, 302]);
      const location = go.headers.get("location")!;
      expect([location, HEADER_SAFE.test(location)]).toEqual([location, true]);
      expect(new URL(location).href).toBe(link.destination);
    }
    // Many are followed (about a quarter): the property is not met by refusing everything.
    expect(saved).toBeGreaterThan(45);
  });
});

describe("rows written before this release", () => {
  test("raw Unicode, private hosts and broken values in the database: /go/ redirects correctly or to the fallback or the page", async () => {
    database((db) => {
      const insert = db.query("INSERT INTO links (slug, destination, fallback_destination) VALUES (?, ?, ?)");
      insert.run("raw-unicode", "https://example.com/路径?q=ü#ö", null);
      insert.run("raw-idn", "https://bücher.example/ü", null);
      insert.run("raw-private", "http://127.0.0.1:9/admin", "https://fallback.example.com/ü");
      insert.run("raw-metadata", "http://169.254.169.254/latest/meta-data/", null);
      insert.run("raw-bidi", "https://example.com/\u202Egnp.exe", null);
      insert.run("raw-crlf", "https://example.com/a\r\nSet-Cookie: owned=1", null);
      insert.run("raw-junk", "not an address at all", "javascript:alert(1)");
    });
    const expected: [string, string][] = [
      ["/go/raw-unicode", "https://example.com/%E8%B7%AF%E5%BE%84?q=%C3%BC#%C3%B6"],
      ["/go/raw-idn", "https://xn--bcher-kva.example/%C3%BC"],
      ["/go/raw-private?p=learn", "https://fallback.example.com/%C3%BC"],
      ["/go/raw-metadata?p=resources", "/resources"],
      ["/go/raw-bidi?p=learn", "/learn"],
      ["/go/raw-crlf?p=footer", "/"],
      ["/go/raw-junk?p=starter-kit", "/quiz/starter-kit"],
    ];
    for (const [path, location] of expected) {
      const res = await fetch(site.url + path, { redirect: "manual" });
      expect([path, res.status, res.headers.get("location"), res.headers.get("set-cookie")]).toEqual([
        path,
        302,
        location,
        null,
      ]);
    }
  });

  test("300 random strings stored straight into the database: /go/ never answers 5xx, and its Location is ASCII", async () => {
    const next = seededRandom(7);
    const values = Array.from({ length: 300 }, () => (next() < 0.5 ? randomDestination(next) : unicodeText(next, 30)));
    database((db) => {
      const insert = db.query("INSERT INTO links (slug, destination, fallback_destination) VALUES (?, ?, ?)");
      values.forEach((value, i) => {
        insert.run(`stored-${i}`, value, i % 2 ? value : null);
      });
    });
    for (const [i, value] of values.entries()) {
      const res = await fetch(`${site.url}/go/stored-${i}?p=learn`, { redirect: "manual" });
      expect([value, res.status]).toEqual([value, 302]);
      expect(HEADER_SAFE.test(res.headers.get("location")!)).toBe(true);
    }
  });
});

describe("other headers built from what a request or a row holds", () => {
  const encoder = new TextEncoder();
  test.each([
    "/learn/01?topic=ü",
    "/learn/01?topic=%FF%FE",
    "/learn/ü",
    "/learn/01ü?a=路径",
    "/learn/1/?topic=\u202E",
    "/course-complete?x=ü",
    "/quiz/result?archetype=ü&id=ü",
    "/quiz/earnings?id=x&tier=ü",
    "/quiz/starter-kit",
    "/blog/ü",
    "/blog/%F0%9F%98%80",
    "/go/ü?p=ü",
    "/go/x?p=%E2%80%AE",
    "/admin-login?next=ü",
    "/uploads/ü.png",
    "/uploads/%E2%80%AE.png",
  ])(
    "a request target of raw bytes %s: no 5xx, any Location plain ASCII on this site or the saved destination",
    async (target) => {
      const res = await rawRequest(
        site.port,
        encoder.encode(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
      );
      expect([target, res.status < 500]).toEqual([target, true]);
      const location = res.headers.location;
      if (location !== undefined) {
        expect([location, HEADER_SAFE.test(location)]).toEqual([location, true]);
        expect(
          location.startsWith("/") ? !/^\/[/\\]/.test(location) : location.startsWith("https://example.com/"),
        ).toBe(true);
      }
    },
  );

  test("a backup file or an export asked for by a hostile name: refused, never a 5xx", async () => {
    for (const name of ["ü.tar", "%E2%80%AE.tar", "a%0D%0ASet-Cookie:%20x.tar", "..%2Fapp.db", "%22.tar"]) {
      const res = await site.admin(`/api/admin/backups/files/${name}`);
      expect([name, res.status]).toEqual([name, 404]);
      expect(res.headers.get("content-disposition")).toBeNull();
    }
    for (const days of ["ü", "%E2%80%AE", "7%0D%0Ax"]) {
      const res = await site.admin(`/api/admin/analytics.csv?days=${days}`);
      expect([days, res.status]).toEqual([days, 400]);
    }
  });
});

describe("a start with sources whose URLs no visitor could follow", () => {
  test("the start goes on and says which source got no link; a raw Unicode URL gets one in its saved form", async () => {
    expect(await site.stop()).toBe(0);
    database((db) => {
      db.run(
        `INSERT INTO affiliate_offers (title, description, link_url, module_id, is_active) VALUES
          ('Metadata offer', 'An offer on the cloud metadata address', 'http://169.254.169.254/', 1, 1),
          ('Unicode offer', 'An offer with a raw Unicode address', 'https://example.com/ü?q=路', 1, 1)`,
      );
      db.run("UPDATE site_settings SET platform_b_url = 'http://x.localhost:9/', platform_b_link_slug = NULL");
    });
    site = await startSite(dataDir, { LINK_CHECK_INTERVAL: "off" });
    expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
    const output = site.output();
    expect(output).toContain("Offer: Metadata offer has no managed link");
    expect(output).toContain("Platform 2 in the settings has no managed link");
    const slug = database(
      (db) =>
        db.query("SELECT link_slug FROM affiliate_offers WHERE title = 'Unicode offer'").get() as { link_slug: string },
    ).link_slug;
    const go = await fetch(`${site.url}/go/${slug}`, { redirect: "manual" });
    expect([go.status, go.headers.get("location")]).toEqual([302, "https://example.com/%C3%BC?q=%E8%B7%AF"]);
    // The source without a link still leads visitors to a page of this site, never to its URL.
    const settings = await json<{ platformB: { url: string } }>(await fetch(`${site.url}/api/settings`));
    expect(settings.platformB.url).toStartWith("/go/");
  }, 30_000);
});
