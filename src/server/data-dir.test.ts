import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "#tests/support/scratch.ts";
import {
  markSite,
  refuseUnusableDatabase,
  SITE_MARKER,
  setDatabaseAside,
  signsOfASite,
  siteDatabase,
  siteDatabaseIds,
  UnusableDatabaseError,
} from "./data-dir.ts";

const VALID_UPLOAD = "AAAAAAAAAAAAAAAAAAAAAA.png";

function dataDir(files: Record<string, string> = {}) {
  const dir = scratchDir("data-dir");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("a DATA_DIR whose database is missing", () => {
  test.each([
    ["the site marker", { [SITE_MARKER]: "x" }, SITE_MARKER],
    ["the session secret", { "jwt-secret": "x".repeat(64) }, "jwt-secret"],
    ["an upload", { [`uploads/${VALID_UPLOAD}`]: "x" }, "1 upload"],
    ["a write-ahead log left behind", { "app.db-wal": "x" }, "app.db-wal"],
    ["the shared-memory index left behind", { "app.db-shm": "x" }, "app.db-shm"],
  ])("with %s held a site: refused, naming the fix, and nothing is created", (_, files, sign) => {
    const dir = dataDir(files);
    let error: unknown;
    try {
      refuseUnusableDatabase(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnusableDatabaseError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toContain(sign);
    expect(message).toContain("cam-guide restore");
    expect(message).toContain("cam-guide new-database");
    expect(existsSync(join(dir, "app.db"))).toBe(false);
  });

  test.each([
    ["empty", {}],
    ["with only a temporary upload", { "uploads/.upload-abc.part": "x" }],
    ["with a file that is not an upload", { "uploads/notes.txt": "x" }],
  ])("%s: a new site may start", (_, files) => {
    const dir = dataDir(files);
    expect(signsOfASite(dir)).toEqual([]);
    expect(refuseUnusableDatabase(dir)).toEqual({ state: "none" });
  });

  test("starting over on purpose keeps the old log and index aside, and the rest in place", () => {
    const dir = dataDir({ [SITE_MARKER]: "x", "app.db-wal": "old", "app.db-shm": "old", "jwt-secret": "s" });
    const moved = setDatabaseAside(dir);
    expect(moved).toHaveLength(2);
    expect(moved.map((path) => readFileSync(path, "utf8"))).toEqual(["old", "old"]);
    expect(existsSync(join(dir, "app.db-wal"))).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith("app.db.unrecognised-"))).toHaveLength(2);
    expect(existsSync(join(dir, "jwt-secret"))).toBe(true);
  });
});

test("the site marker is written once, private, says what it is for, and lists each database id once", () => {
  const dir = dataDir();
  markSite(dir, null);
  const first = readFileSync(join(dir, SITE_MARKER), "utf8");
  expect(first).toContain("cam-guide new-database");
  expect(statSync(join(dir, SITE_MARKER)).mode & 0o777).toBe(0o600);
  markSite(dir, null);
  expect(readFileSync(join(dir, SITE_MARKER), "utf8")).toBe(first);
  markSite(dir, 42);
  markSite(dir, 42);
  markSite(dir, 7);
  expect(siteDatabaseIds(dir)).toEqual([42, 7]);
  expect(siteDatabase(dir)).toEqual({ state: "missing", signs: [SITE_MARKER] });
});
