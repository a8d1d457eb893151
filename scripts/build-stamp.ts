// What a build was made from: a fingerprint of every file the client bundle and the
// executable are built from (their paths, sizes and modification times). `bun run build` and
// `bun run build:client` leave it beside what they made, so a test run can tell a build that
// is current from one that is missing or older than the sources, and build only then.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

/** The folders and files whose content goes into a build. */
const INPUTS = [
  "src",
  "scripts",
  "drizzle",
  "drizzle-pg",
  "content",
  "public",
  "package.json",
  "bun.lock",
  "tsconfig.json",
];

/** What each build leaves: its stamp file, beside the output it describes. */
export const STAMPS = {
  client: join(ROOT, "dist", "client.built-from"),
  executable: join(ROOT, "dist", "cam-guide.built-from"),
} as const;

function collect(path: string, into: string[]): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) {
    into.push(`${path.slice(ROOT.length)}\t${stat.size}\t${stat.mtimeMs}`);
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    // Tests never go into a build: editing one does not make the build stale.
    if (/\.(test|e2e)\.tsx?$/.test(entry)) continue;
    collect(join(path, entry), into);
  }
}

/** The fingerprint of the build inputs as they are now (a few milliseconds). */
export function buildInputs(): string {
  const lines: string[] = [];
  for (const input of INPUTS) collect(join(ROOT, input), lines);
  return Bun.hash(lines.join("\n")).toString(16);
}

/** Records that `kind` was built from `inputs` (taken before the build began). */
export function stampBuild(kind: keyof typeof STAMPS, inputs: string): void {
  writeFileSync(STAMPS[kind], `${inputs}\n`);
}

/** Whether `kind` was built from the sources as they are now. */
export function builtFromCurrentSources(kind: keyof typeof STAMPS, inputs = buildInputs()): boolean {
  try {
    return readFileSync(STAMPS[kind], "utf8").trim() === inputs;
  } catch {
    return false;
  }
}
