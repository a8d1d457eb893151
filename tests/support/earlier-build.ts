// An executable built from an earlier commit of this repository, for the upgrade test: its
// database schema is one migration behind this one's. Built once into dist/earlier/<commit>/
// (inside this checkout, so that its build finds this checkout's node_modules above it) and
// kept there for later runs, as tests/support/built.ts keeps the current one.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "#scripts/build-stamp.ts";

/** The last commit before the migration that keeps anonymous results for the days set in Settings. */
const EARLIER_COMMIT = "d19fe5465a767797863efb5f6f115f83b28e9890";

const run = (cmd: string[], cwd: string) => {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "ignore", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${result.stderr.toString().trim()}`);
};

/** Removes the earlier commit's own tests, so `bun test` in this checkout never runs them. */
function removeTests(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) removeTests(path);
    else if (/\.(test|e2e)\.tsx?$/.test(name)) rmSync(path);
  }
}

/**
 * Whether this checkout holds the earlier commit: a shallow clone or an exported tree does not,
 * and cannot build the earlier release. Said once, so a run without it shows what it left out.
 */
export function earlierCommitAvailable(): boolean {
  const found = Bun.spawnSync(["git", "cat-file", "-e", `${EARLIER_COMMIT}^{commit}`], {
    cwd: ROOT,
    stdout: "ignore",
    stderr: "ignore",
  });
  if (found.exitCode === 0) return true;
  console.warn(
    `The upgrade tests need commit ${EARLIER_COMMIT.slice(0, 12)} (git history): this checkout has none, so they do not run. Clone without --depth to run them.`,
  );
  return false;
}

/** The path of the earlier executable, built on first use (a few seconds; needs this checkout's git history). */
export function earlierExecutable(): string {
  const home = join(ROOT, "dist", "earlier", EARLIER_COMMIT);
  const executable = join(home, "dist", "cam-guide");
  if (existsSync(executable)) return executable;
  const building = `${home}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    const archive = join(building, "source.tar");
    run(
      [
        "git",
        "archive",
        "--output",
        archive,
        EARLIER_COMMIT,
        "src",
        "content",
        "drizzle",
        "public",
        "scripts",
        "package.json",
        "tsconfig.json",
      ],
      ROOT,
    );
    run(["tar", "-xf", archive], building);
    rmSync(archive);
    removeTests(join(building, "src"));
    run(["bun", "run", "build"], building);
    rmSync(home, { recursive: true, force: true });
    renameSync(building, home);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return executable;
}
