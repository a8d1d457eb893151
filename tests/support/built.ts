// Builds what a test needs (the client bundle, the executable) once, on demand: when it is
// missing or older than the sources. Test processes running side by side take turns through
// a lock, and the one that waited finds the build made and current.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { builtFromCurrentSources, ROOT } from "#scripts/build-stamp.ts";

const LOCK = join(ROOT, "dist", ".build-lock");
/** A lock older than this was left by a build that died (a build takes seconds). */
const STALE_LOCK_MS = 10 * 60_000;

function takeLock(): boolean {
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    const held = statSync(LOCK, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function build(kind: "client" | "executable"): void {
  const script = kind === "client" ? "build:client" : "build";
  // The build's own lines go to stderr: a test run's output stays readable.
  const result = Bun.spawnSync(["bun", "run", script], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  if (result.exitCode !== 0) throw new Error(`bun run ${script} failed (exit ${result.exitCode})`);
}

/** Makes `kind` current, building it (and waiting for another process's build) when needed. */
export function ensureCurrent(kind: "client" | "executable"): void {
  // The executable embeds the client bundle: a current executable's build made a current bundle.
  while (!builtFromCurrentSources(kind)) {
    if (!takeLock()) {
      Bun.sleepSync(250);
      continue;
    }
    try {
      if (!builtFromCurrentSources(kind)) build(kind);
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
    if (!builtFromCurrentSources(kind))
      throw new Error(`bun run build left dist/ older than the sources: were they edited during the build?`);
  }
}
