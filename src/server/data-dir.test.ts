import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "#tests/support/scratch.ts";
import { checkDatabasePresent, MissingDatabaseError, markSite, SITE_MARKER, signsOfASite } from "./data-dir.ts";

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
      checkDatabasePresent(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MissingDatabaseError);
    const message = (error as Error).message;
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
    expect(() => checkDatabasePresent(dir)).not.toThrow();
  });

  test("starting over on purpose removes the old log and index, keeps the rest", () => {
    const dir = dataDir({ [SITE_MARKER]: "x", "app.db-wal": "old", "app.db-shm": "old", "jwt-secret": "s" });
    checkDatabasePresent(dir, { startOver: true });
    expect(existsSync(join(dir, "app.db-wal"))).toBe(false);
    expect(existsSync(join(dir, "app.db-shm"))).toBe(false);
    expect(existsSync(join(dir, "jwt-secret"))).toBe(true);
  });

  test("a database in place: nothing to refuse", () => {
    const dir = dataDir({ "app.db": "", [SITE_MARKER]: "x" });
    expect(() => checkDatabasePresent(dir)).not.toThrow();
  });
});

test("the site marker is written once, private, and says what it is for", () => {
  const dir = dataDir();
  markSite(dir);
  const first = readFileSync(join(dir, SITE_MARKER), "utf8");
  expect(first).toContain("cam-guide new-database");
  expect(statSync(join(dir, SITE_MARKER)).mode & 0o777).toBe(0o600);
  markSite(dir);
  expect(readFileSync(join(dir, SITE_MARKER), "utf8")).toBe(first);
});
