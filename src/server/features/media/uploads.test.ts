import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { countedBody } from "#tests/support/counted-body.ts";
import { runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { removeUnfinishedUploads, temporaryName } from "./uploads.ts";

const root = join(import.meta.dir, "..", "..", "..", "..");
// A real 1×1 PNG.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const MP4 = new Uint8Array(readFileSync(join(root, "public", "seed", "offers", "first-stream.mp4")));

function form(bytes: Uint8Array, name: string, type: string) {
  const data = new FormData();
  data.append("file", new File([new Uint8Array(bytes)], name, { type }));
  return data;
}

const nothingStored: Scenario["check"] = (_, { uploadsDir }) => expect(readdirSync(uploadsDir)).toEqual([]);

runScenarios("POST /api/upload without the session or from another site", [
  {
    name: "no session: 401, nothing stored",
    method: "POST",
    path: "/api/upload",
    body: () => form(PNG, "a.png", "image/png"),
    headers: { origin: "http://localhost" },
    status: 401,
    json: { error: "Sign in as the admin to continue." },
    unchanged: true,
    check: nothingStored,
  },
  ...(
    [
      ["a foreign Origin", { origin: "https://evil.example" }],
      ["marked cross-site", { origin: null, "sec-fetch-site": "cross-site" }],
    ] as const
  ).map(
    ([label, headers]): Scenario => ({
      name: `${label} with the session: 403`,
      who: "admin",
      method: "POST",
      path: "/api/upload",
      body: () => form(PNG, "a.png", "image/png"),
      headers,
      status: 403,
      check: nothingStored,
    }),
  ),
]);

/** A new site with the file uploaded by its admin (201), and the address it is served at. */
async function uploaded(body: FormData) {
  const api = await scenarioApp({ admin: true });
  const res = await api.check({ who: "admin", method: "POST", path: "/api/upload", body, status: 201 });
  return { api, url: res.json<{ url: string }>().url };
}

describe("POST /api/upload", () => {
  test("a real PNG is stored under a server-made name and served with its type", async () => {
    const { api, url } = await uploaded(form(PNG, "my photo.png", "image/png"));
    expect(url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.png$/);
    expect(readdirSync(api.uploadsDir)).toEqual([url.split("/").pop()!]);
    const served = await api.request(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });

  test("a small MP4 is accepted and served in byte ranges", async () => {
    const { api, url } = await uploaded(form(MP4, "clip.mp4", "video/mp4"));
    expect(url).toEndWith(".mp4");
    const part = await api.request(url, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${MP4.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(MP4.slice(0, 100));
    await api.check({ path: url, headers: { range: "bytes=999999-" }, status: 416 });
  });

  test("a request over the limit is refused from its Content-Length, before the body is read", async () => {
    const api = await scenarioApp({ admin: true });
    const { body, pulled } = countedBody(1024, 5);
    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/upload",
      body,
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(200 * 1024 * 1024) },
      status: 413,
    });
    expect(pulled()).toBeLessThanOrEqual(1);
  });
});

const big = new Uint8Array(5 * 1024 * 1024 + 10);
big.set(PNG);
const other = new FormData();
other.append("other", new File([PNG], "a.png"));

runScenarios("POST /api/upload: refused files store nothing", [
  ...(
    [
      [
        "a text file named .png",
        new TextEncoder().encode("just some text, not an image"),
        "fake.png",
        "image/png",
        415,
      ],
      [
        "an HTML file claiming to be an image",
        new TextEncoder().encode("<html><script>alert(1)</script></html>"),
        "x.jpg",
        "image/jpeg",
        415,
      ],
      [
        "an SVG (scripts can hide in it)",
        new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        "x.svg",
        "image/svg+xml",
        415,
      ],
      ["a path in the file name", PNG, "../../etc/passwd.png", "image/png", 422],
      ["an empty file", new Uint8Array(), "empty.png", "image/png", 422],
    ] as const
  ).map(
    ([name, bytes, file, type, status]): Scenario => ({
      name,
      who: "admin",
      method: "POST",
      path: "/api/upload",
      body: () => form(bytes, file, type),
      status,
      contains: { error: expect.stringMatching(/./) },
      check: nothingStored,
    }),
  ),
  {
    name: "an image over 5 MB",
    who: "admin",
    method: "POST",
    path: "/api/upload",
    body: () => form(big, "big.png", "image/png"),
    status: 413,
    json: { error: "Image must be less than 5MB." },
    check: nothingStored,
  },
  {
    name: "no field named file",
    who: "admin",
    method: "POST",
    path: "/api/upload",
    body: () => other,
    status: 422,
    check: nothingStored,
  },
  {
    name: "not multipart",
    who: "admin",
    method: "POST",
    path: "/api/upload",
    body: { file: "x" },
    status: 415,
    check: nothingStored,
  },
]);

runScenarios(
  "GET /uploads/:name of no stored file is a 404",
  ["nope.png", "../app.db", "%2e%2e%2fapp.db", "AAAAAAAAAAAAAAAAAAAAAA.exe"].map((name) => ({
    name,
    path: `/uploads/${name}`,
    status: 404,
  })),
);

describe("GET /uploads/:name serves only finished uploads", () => {
  test.each([
    [
      "an empty file under a server-made name (left by an older version on a full disk)",
      "AAAAAAAAAAAAAAAAAAAAAA.mp4",
      "",
    ],
    ["a temporary name of an upload still arriving", ".upload-AAAAAAAAAAAAAAAAAAAAAA.part", "partial bytes"],
  ])("%s: 404", async (_, name, text) => {
    const api = await scenarioApp();
    writeFileSync(join(api.uploadsDir, name), text);
    await api.check({ path: `/uploads/${encodeURIComponent(name)}`, status: 404 });
  });
});

describe("the clean-up at start removes only what nobody is receiving", () => {
  test("this process's, a dead process's and an older version's go; a live process's and another machine's recent one stay", async () => {
    const dir = scratchDir("unfinished-uploads");
    const host = hostname().replace(/[^A-Za-z0-9.-]/g, "-");
    const ended = Bun.spawn(["true"]);
    await ended.exited;
    const names = {
      mine: temporaryName(),
      dead: `.upload-${host}~${ended.pid}~BBBBBBBBBBBBBBBBBBBBBB.part`,
      older: ".upload-AAAAAAAAAAAAAAAAAAAAAA.part",
      // The test runner's parent is alive: an instance receiving an upload into the same folder.
      live: `.upload-${host}~${process.ppid}~CCCCCCCCCCCCCCCCCCCCCC.part`,
      foreign: ".upload-other-machine~42~DDDDDDDDDDDDDDDDDDDDDD.part",
      foreignOld: ".upload-other-machine~43~EEEEEEEEEEEEEEEEEEEEEE.part",
      finished: "KEPTKEPTKEPTKEPTKEPTKE.png",
    };
    for (const name of Object.values(names)) writeFileSync(join(dir, name), "bytes");
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    utimesSync(join(dir, names.foreignOld), dayAgo, dayAgo);
    expect(removeUnfinishedUploads(dir)).toBe(4);
    expect(readdirSync(dir).sort()).toEqual([names.finished, names.foreign, names.live].sort());
  });
});
