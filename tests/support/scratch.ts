import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let root: string | undefined;
let count = 0;

/**
 * A fresh, empty folder for one test, under one temporary root per test process.
 * tests/setup/scratch.ts removes the root after the last test, passed or failed.
 */
export function scratchDir(label = "scratch"): string {
  root ??= mkdtempSync(join(tmpdir(), "cam-guide-tests-"));
  const dir = join(root, `${label}-${++count}`);
  mkdirSync(dir);
  return dir;
}

/** Removes every scratch folder made so far. */
export function removeScratch(): void {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
}
