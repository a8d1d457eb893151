// Smaller gaps, attacked on the compiled executable (dist/cam-guide) through its real API:
// an image from another site in any attribute a browser loads one from (srcset candidates,
// picture sources, posters, SVG images, style url()) is refused in posts, site pages and
// offer descriptions; the analytics CSV never hands a spreadsheet a formula, whatever
// referrer or campaign label a visitor sends; anonymous results expire after the days set
// in Settings, are deleted in batches while the server answers, and the privacy page says so.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { computeTier } from "#shared/features/earnings/tiers.ts";
import { scoringTable } from "#shared/features/quiz/content.ts";
import { scoreArchetype } from "#shared/features/quiz/scoring.ts";
import type { Running } from "#tests/support/binary.ts";
import { readCsv } from "#tests/support/csv.ts";
import { parseHtml } from "#tests/support/page.ts";
import { type SiteServer, serverForTable, signIn, siteDataDir, withServer } from "#tests/support/template-site.ts";

const FOREIGN = "https://images.example/b.png";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const DAY = 24 * 60 * 60 * 1000;

/**
 * A server with the admin signed in: `admin` sends a request as the admin from the site's
 * own pages; `raw` sends a body exactly as written.
 */
interface Site {
  server: SiteServer;
  admin(path: string, init?: { method?: string; json?: unknown; raw?: string }): Promise<Response>;
}

async function siteOf(server: SiteServer): Promise<Site> {
  const cookie = await signIn(server);
  return {
    server,
    admin(path, init = {}) {
      const body = init.raw ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
      return fetch(`${server.url}${path}`, {
        method: init.method ?? "GET",
        headers: { cookie, origin: server.url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body,
      });
    },
  };
}

/** Runs `use` with a signed-in server of its own. */
const withSite = (use: (site: Site) => Promise<void>) => withServer(async (server) => use(await siteOf(server)));

/** One signed-in server for a table whose every write must be refused, each case comparing what it left. */
function siteForTable(): () => Promise<Site> {
  const server = serverForTable();
  let site: Promise<Site> | undefined;
  return () => {
    site ??= server().then(siteOf);
    return site;
  };
}

// ---------------------------------------------------------------------------------------
// Images in content

/** Every address the page's HTML makes a browser load as an image (img, source, srcset, style url()). */
function imageAddressesIn(html: string): string[] {
  const doc = parseHtml(html);
  const found: string[] = [];
  for (const el of doc.querySelectorAll("*")) {
    for (const name of ["src", "poster", "background"])
      if (el.tagName !== "IFRAME" && el.tagName !== "SCRIPT" && el.hasAttribute(name))
        found.push(el.getAttribute(name)!);
    for (const name of ["srcset", "imagesrcset"])
      if (el.hasAttribute(name))
        found.push(
          ...el
            .getAttribute(name)!
            .split(/[\s,]+/)
            .filter(Boolean),
        );
    for (const match of (el.getAttribute("style") ?? "").matchAll(/url\(([^)]*)\)/gi)) found.push(match[1]!);
  }
  return found;
}

/** The addresses among `addresses` a browser at `page` would fetch from another origin (data: is allowed). */
function offOrigin(page: string, addresses: string[]): string[] {
  return addresses.filter((address) => {
    try {
      const url = new URL(address, page);
      return url.protocol !== "data:" && url.origin !== new URL(page).origin;
    } catch {
      return true;
    }
  });
}

// Each as HTML: in a post's HTML content, and inside Markdown (the post's editor, a site page,
// an offer's description), which passes HTML through to the same checks.
const REFUSED = [
  `<img src="/a.png" srcset="/a.png 1x, ${FOREIGN} 2x">`,
  `<img srcset="${FOREIGN} 2x, /a.png 1x">`,
  `<img src="/a.png" srcset="/a.png 1x, //images.example/b.png 2x">`,
  `<img src="/a.png" srcset="/a.png 1x, /\\images.example/b.png 2x">`,
  `<img src="/a.png" srcset="\\\\images.example/b.png 2x">`,
  `<img src="/a.png" srcset="/a.png 1x, HTTPS://IMAGES.EXAMPLE/B.PNG 2x">`,
  `<img src="/a.png" srcset="/a.png 1x,\n\t ${FOREIGN}\n 2x">`,
  `<img src="/a.png" srcset="/a.png,${FOREIGN}">`,
  `<img srcset="  ,,, ${FOREIGN}  ">`,
  `<img srcset="data:image/png;base64,iVBORw0KGgo= 1x, ${FOREIGN} 2x">`,
  `<img srcset="&#104;ttps://images.example/b.png 2x">`,
  `<img srcset="h&#9;ttps://images.example/b.png 2x">`,
  `<img src="h&#10;ttps://images.example/b.png">`,
  `<img src="&#1;https://images.example/b.png">`,
  `<img src="https:images.example/b.png">`,
  `<img src="/&#9;/images.example/b.png">`,
  `<img srcset='${FOREIGN} 480w' sizes="50vw">`,
  `<IMG SRCSET="${FOREIGN}">`,
  `<picture><source srcset="${FOREIGN}" type="image/webp"><img src="/a.png"></picture>`,
  `<picture><source srcset="/a.webp 1x, //images.example/b.webp 2x"><img src="/a.png"></picture>`,
  `<video poster="${FOREIGN}" src="/uploads/v.mp4"></video>`,
  `<video><source src="https://images.example/v.mp4"></video>`,
  `<svg><image href="${FOREIGN}"/></svg>`,
  `<p style="background-image: url('${FOREIGN}')">x</p>`,
  `<p style="background: url(\\68ttps://images.example/b.png)">x</p>`,
  `<input type="image" src="${FOREIGN}">`,
  `<link rel="preload" as="image" imagesrcset="${FOREIGN} 2x">`,
  `<table background="${FOREIGN}"><tr><td>x</td></tr></table>`,
];

const ACCEPTED = [
  `<img src="/uploads/a.png" srcset="/uploads/a-480.webp 480w, /uploads/a-960.webp 960w" sizes="(max-width: 600px) 100vw, 50vw">`,
  `<img srcset="data:image/png;base64,iVBORw0KGgo= 1x, /a.png 2x">`,
  `<img srcset="%2F%2Fimages.example/b.png 2x">`,
  `<img src="relative/a.png" srcset="./a.png 1x,\n../b.png 2x">`,
  `<picture><source srcset="/uploads/a.webp"><img src="/uploads/a.png"></picture>`,
  `<p><a href="${FOREIGN}">a link to a picture elsewhere</a></p>`,
];

let made = 0;
/** Saves `html` in every content field; each field's answer and, when saved, the public page's HTML. */
async function saveEverywhere({ server, admin }: Site, html: string) {
  const n = ++made;
  const answers: { field: string; status: number; message?: string; page?: string; pageUrl?: string }[] = [];
  const record = async (field: string, res: Response, pageUrl: string, page: () => Promise<string>) => {
    const body = await res.json();
    const message = (body.details ?? []).find((d: { field: string }) => d.field === field.split(" ")[0])?.message;
    answers.push({ field, status: res.status, message, pageUrl, page: res.ok ? await page() : undefined });
  };
  for (const [field, input] of [
    ["content", { content: `<p>Hi</p>${html}` }],
    ["contentMarkdown (post)", { contentMarkdown: `Hi\n\n${html}\n` }],
  ] as const) {
    const slug = `img-${n}-${field.length}`;
    const res = await admin("/api/admin/blog/post", {
      method: "POST",
      json: { title: "Images", slug, excerpt: "", category: null, coverImage: null, published: true, ...input },
    });
    await record(field, res, `${server.url}/blog/${slug}`, async () =>
      (await fetch(`${server.url}/blog/${slug}`)).text(),
    );
  }
  const pageRes = await admin("/api/admin/site-page/terms", {
    method: "PUT",
    json: {
      title: "Terms",
      description: "The terms of this website, for testing.",
      bodyMarkdown: `Terms\n\n${html}\n`,
    },
  });
  await record("bodyMarkdown (site page)", pageRes, `${server.url}/terms`, async () =>
    (await fetch(`${server.url}/terms`)).text(),
  );
  const offerRes = await admin("/api/admin/affiliate-offer", {
    method: "POST",
    json: {
      title: `Offer ${n}`,
      description: `An offer.\n\n${html}\n`,
      imageUrl: null,
      videoUrl: null,
      useEmbed: false,
      embedCode: null,
      linkUrl: "https://example.com/x",
      linkText: "Go",
      moduleId: 3,
      isActive: true,
    },
  });
  await record("description (offer)", offerRes, `${server.url}/learn/3`, async () => {
    const offers = (await (await fetch(`${server.url}/api/module/3/affiliate-offers?fullRandom=true`)).json()) as {
      title: string;
      descriptionHtml: string | null;
    }[];
    return offers.find((o) => o.title === `Offer ${n}`)?.descriptionHtml ?? "";
  });
  return answers;
}

describe("images from another website are refused in every attribute that shows one", () => {
  const refusing = siteForTable();
  test.each(REFUSED.map((html) => [html]))("%p: 422 at the field in posts, site pages and offers", async (html) => {
    const site = await refusing();
    const { admin } = site;
    const stored = async () =>
      Promise.all(
        ["/api/admin/blog/posts", "/api/admin/affiliate-offers", "/api/admin/site-page/terms"].map(async (path) =>
          (await admin(path)).json(),
        ),
      );
    const before = await stored();
    for (const answer of await saveEverywhere(site, html)) {
      expect([answer.field, answer.status]).toEqual([answer.field, 422]);
      expect([answer.field, answer.message]).toEqual([
        answer.field,
        expect.stringMatching(/^Images in the (content|text|description) must be uploaded here: the site's security/),
      ]);
    }
    expect(await stored()).toEqual(before);
  });

  test.each(ACCEPTED.map((html) => [html]))("%p: saved, and the public page loads no image from elsewhere", (html) =>
    withSite(async (site) => {
      for (const answer of await saveEverywhere(site, html)) {
        expect([answer.field, answer.status < 300]).toEqual([answer.field, true]);
        expect([answer.field, offOrigin(answer.pageUrl!, imageAddressesIn(answer.page!))]).toEqual([answer.field, []]);
      }
    }),
  );
});

// ---------------------------------------------------------------------------------------
// The analytics CSV

/** What a spreadsheet evaluates: a formula character first (full-width too), or after leading spaces or control characters. */
const STARTS_FORMULA = /^(?:[\t\r\n\0]|[\p{White_Space}\p{Cc}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

describe("the analytics CSV, with what visitors can put in it", () => {
  // Referrer hosts and campaign labels are the text a visitor controls in the daily counts.
  const REFERRERS = [
    "http://=1+1,2;3.example/",
    'http://=hyperlink("x").example/',
    "http://-2+3.example/",
    "http://+cmd.example/a",
    "http://%3D2+2.example/",
    'https://a"b;c,d.example/',
  ];
  const CAMPAIGNS = ["-2+3", "+1", "- 1", "-cmd", "a,b", "x;y"];

  test("no cell starts a formula, every hostile value is there (defused), and the file reads back strictly", () =>
    withSite(async ({ server, admin }) => {
      for (const referer of REFERRERS)
        expect((await fetch(`${server.url}/learn`, { headers: { referer, "user-agent": BROWSER } })).status).toBe(200);
      for (const label of CAMPAIGNS) {
        const res = await fetch(`${server.url}/blog?utm_source=${encodeURIComponent(label)}`, {
          headers: { "user-agent": BROWSER },
        });
        expect(res.status).toBe(200);
      }
      // Counts are written together about once a second.
      const deadline = Date.now() + 15_000;
      let records: string[][] = [];
      for (;;) {
        const res = await admin("/api/admin/analytics.csv?days=7");
        expect(res.status).toBe(200);
        records = readCsv(await res.text());
        const keys = new Set(records.map((r) => r[2]));
        if (keys.has("'=1+1,2;3.example") && keys.has("'-cmd")) break;
        if (Date.now() > deadline) throw new Error(`counts not in the CSV: ${JSON.stringify(records)}`);
        await Bun.sleep(100);
      }
      expect(records[0]).toEqual(["day", "metric", "key", "count"]);
      for (const record of records) {
        expect(record.length).toBe(4);
        for (const cell of record) expect([cell, STARTS_FORMULA.test(cell)]).toEqual([cell, false]);
      }
      const keys = records.map((r) => r[2]);
      for (const key of [
        "'=1+1,2;3.example",
        `'=hyperlink("x").example`,
        "'-2+3.example",
        "'+cmd.example",
        "'=2+2.example",
        'a"b;c,d.example',
        "'-2+3",
        "'+1",
        "'- 1",
        "'-cmd",
      ])
        expect(keys).toContain(key);
    }));
});

// ---------------------------------------------------------------------------------------
// Anonymous results expire

const QUIZ_ANSWERS = Array(15).fill("C") as string[];
const EARNINGS_ANSWERS = Array(15).fill(2) as number[];

async function saveResults(
  server: Running,
): Promise<{ quiz: string; archetype: string; earnings: string; tier: string }> {
  const { archetype } = scoreArchetype(QUIZ_ANSWERS as never, scoringTable);
  const quizRes = await fetch(`${server.url}/api/quiz/result`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ archetype, answers: QUIZ_ANSWERS }),
  });
  expect(quizRes.status).toBe(201);
  const quiz = (await quizRes.json()).id as string;
  const tier = computeTier(EARNINGS_ANSWERS as never);
  const earningsRes = await fetch(`${server.url}/api/earnings/result`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({
      tier: tier.tier,
      estimatedEarnings: tier.estimatedEarnings,
      score: tier.score,
      quizResultId: quiz,
      answers: EARNINGS_ANSWERS,
    }),
  });
  expect(earningsRes.status).toBe(201);
  return { quiz, archetype, earnings: (await earningsRes.json()).id, tier: tier.tier };
}

/** Moves a saved result's date back, as the data of a running site ages (written by another connection). */
function age(dataDir: string, table: "quiz_results" | "earnings_results", id: string, days: number) {
  const db = new Database(join(dataDir, "app.db"));
  db.run("PRAGMA wal_autocheckpoint = 0"); // only the server checkpoints (decision 059)
  try {
    db.run(`UPDATE ${table} SET created_at = ? WHERE id = ?`, [Date.now() - days * DAY, id]);
  } finally {
    db.close();
  }
}

function rowExists(dataDir: string, table: "quiz_results" | "earnings_results", id: string): boolean {
  const db = new Database(join(dataDir, "app.db"), { readonly: true });
  try {
    return db.query(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== null;
  } finally {
    db.close();
  }
}

const PATH = "/api/admin/settings/result-retention";

describe("the retention setting: bad values are refused, nothing changes", () => {
  const refusingValues = siteForTable();
  test.each([
    '{"days":0}',
    '{"days":-5}',
    '{"days":3651}',
    '{"days":2.5}',
    '{"days":1e400}',
    '{"days":"30"}',
    '{"days":" 30"}',
    '{"days":"\u0661\u0662"}',
    '{"days":[30]}',
    '{"days":{"$gt":1}}',
    '{"days":true}',
    '{"days":30,"days":0}',
    "{}",
    '{"forever":true}',
  ])("%s: 422 with the allowed range at the field", async (raw) => {
    const { admin } = await refusingValues();
    const before = await (await admin(PATH)).json();
    const res = await admin(PATH, { method: "PUT", raw });
    expect(res.status).toBe(422);
    expect((await res.json()).details).toContainEqual({
      field: "days",
      message: "Keep results for a whole number of days from 1 to 3,650 (ten years)",
    });
    expect(await (await admin(PATH)).json()).toEqual(before);
  });

  const refusingBodies = siteForTable();
  test.each(["", "{", "null", "[]", '"30"'])("%p: a 4xx with a sentence, never a 5xx", async (raw) => {
    const { admin } = await refusingBodies();
    const res = await admin(PATH, { method: "PUT", raw });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof (await res.json()).error).toBe("string");
  });

  test("a sign-in is needed, and a page of another site cannot change it", () =>
    withServer(async (server) => {
      const cookie = await signIn(server);
      const admin = (path: string) => fetch(server.url + path, { headers: { cookie, origin: server.url } });
      const body = '{"days":1}';
      const headers = { "content-type": "application/json" };
      expect(
        (await fetch(`${server.url}${PATH}`, { method: "PUT", headers: { ...headers, origin: server.url }, body }))
          .status,
      ).toBe(401);
      expect(
        (
          await fetch(`${server.url}${PATH}`, {
            method: "PUT",
            headers: { ...headers, cookie, origin: "https://evil.example" },
            body,
          })
        ).status,
      ).toBe(403);
      expect((await (await admin(PATH)).json()).stored).toBeNull();
    }));
});

describe("an expired result is gone, then deleted; the privacy page says how long results are kept", () => {
  test("older than the retention: its read and its page are a kind 404 at once; a shorter setting deletes it", () =>
    withSite(async ({ server, admin }) => {
      const { dataDir } = server;
      expect((await (await admin(PATH)).json()).days).toBe(180);
      const fresh = await saveResults(server);
      const old = await saveResults(server);
      const page = `/quiz/result?archetype=${encodeURIComponent(old.archetype)}&id=${old.quiz}`;
      expect((await fetch(`${server.url}${page}`)).status).toBe(200);
      age(dataDir, "quiz_results", old.quiz, 181);
      age(dataDir, "earnings_results", old.earnings, 181);
      // The pass has not run yet, but the result is gone for visitors already.
      expect(rowExists(dataDir, "quiz_results", old.quiz)).toBe(true);
      const read = await fetch(`${server.url}/api/quiz/result/${old.quiz}`);
      expect(read.status).toBe(404);
      expect((await read.json()).error).toBe("No quiz result with that id (results are kept for 180 days).");
      expect((await fetch(`${server.url}/api/earnings/result/${old.earnings}`)).status).toBe(404);
      // (The page had been cached: an admin change empties the cache, as the hourly pass does for results.)
      expect((await admin(PATH, { method: "PUT", json: { days: 180 } })).status).toBe(200);
      const gone = await fetch(`${server.url}${page}`);
      expect(gone.status).toBe(404);
      const text = parseHtml(await gone.text())
        .querySelector("main")!
        .textContent!.replace(/\s+/g, " ");
      expect(text).toContain("This result is no longer here");
      expect(text).toContain("Saved quiz results are kept for 180 days and then deleted");
      const tier = await fetch(`${server.url}/quiz/earnings?tier=${encodeURIComponent(old.tier)}&id=${old.earnings}`);
      expect(tier.status).toBe(404);

      // The pass after the save deleted the expired rows, and nothing newer.
      const deadline = Date.now() + 10_000;
      while (rowExists(dataDir, "quiz_results", old.quiz) || rowExists(dataDir, "earnings_results", old.earnings)) {
        if (Date.now() > deadline) throw new Error("the expired results were not deleted");
        await Bun.sleep(20);
      }
      expect(rowExists(dataDir, "quiz_results", fresh.quiz)).toBe(true);
      expect((await fetch(`${server.url}/api/quiz/result/${fresh.quiz}`)).status).toBe(200);
      const state = await (await admin(PATH)).json();
      expect(state.lastRun.deleted).toBeGreaterThanOrEqual(2);
    }));

  test("the privacy page states the number saved in Settings", () =>
    withSite(async ({ server, admin }) => {
      const privacy = async () =>
        parseHtml(await (await fetch(`${server.url}/privacy`)).text())
          .querySelector("main")!
          .textContent!.replace(/\s+/g, " ");
      expect(await privacy()).toContain("Saved results are deleted automatically 180 days after they were made");
      expect((await admin(PATH, { method: "PUT", json: { days: 45 } })).status).toBe(200);
      expect(await privacy()).toContain("Saved results are deleted automatically 45 days after they were made");
      expect((await admin(PATH, { method: "PUT", json: { days: null } })).status).toBe(200);
      expect(await privacy()).toContain("deleted automatically 180 days after");
    }));
});

describe("at start, expired results are deleted in batches while the server answers", () => {
  test("20,000 expired results go; requests meanwhile all succeed", async () => {
    const dir = await siteDataDir("retention-start");
    const db = new Database(join(dir, "app.db"));
    const old = Date.now() - 400 * DAY;
    const insert = db.prepare("INSERT INTO quiz_results (id, archetype, answers, created_at) VALUES (?, ?, ?, ?)");
    const answers = JSON.stringify(Array(15).fill("A"));
    db.transaction(() => {
      for (let n = 0; n < 20_000; n++) insert.run(`old${n}`, "Girl Next Door", answers, old + n);
      insert.run("kept-one", "Girl Next Door", answers, Date.now());
    })();
    db.close();
    await withServer(
      async (second) => {
        const count = () => {
          const read = new Database(join(dir, "app.db"), { readonly: true });
          try {
            return (read.query("SELECT count(*) AS n FROM quiz_results").get() as { n: number }).n;
          } finally {
            read.close();
          }
        };
        const deadline = Date.now() + 20_000;
        let answered = 0;
        while (count() > 1) {
          if (Date.now() > deadline) throw new Error(`still ${count()} results after 20 s`);
          const res = await fetch(`${second.url}/api/quiz/result/kept-one`);
          expect(res.status).toBe(200);
          answered++;
        }
        expect(count()).toBe(1);
        expect(answered).toBeGreaterThan(0);
      },
      { dataDir: dir },
    );
  }, 60_000);
});
