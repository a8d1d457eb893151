// `bun run build`: the client bundle, then one executable (dist/cam-guide) that embeds
// it together with the migrations and public/ files.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildInputs, builtFromCurrentSources, STAMPS, stampBuild } from "./build-stamp.ts";

const root = join(import.meta.dir, "..");

/** The commit being built, for `cam-guide --version`; "" outside a git checkout. */
function commit(): string {
  const git = (args: string[]) => Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
  const head = git(["rev-parse", "--short=12", "HEAD"]);
  if (head.exitCode !== 0) return "";
  // Tracked files that differ from the commit make a build the commit alone does not describe.
  const changed = git(["status", "--porcelain", "--untracked-files=no"]).stdout.toString().trim() !== "";
  return `${head.stdout.toString().trim()}${changed ? " with uncommitted changes" : ""}`;
}
const inputs = buildInputs();
rmSync(STAMPS.executable, { force: true });
const run = (cmd: string[]) => {
  const result = Bun.spawnSync(cmd, { cwd: root, stdout: "inherit", stderr: "inherit" });
  if (result.exitCode !== 0) {
    console.error(`Failed: ${cmd.join(" ")}`);
    process.exit(result.exitCode ?? 1);
  }
};

// A client bundle built from these very sources is kept: a test process may be reading it.
if (builtFromCurrentSources("client", inputs)) console.log("Client bundle in dist/client is current: kept");
else run(["bun", "scripts/build-client.ts"]);
run([
  "bun",
  "build",
  "--compile",
  // Bytecode compiled ahead: each start (the server and every command) parses nothing, and
  // takes half the time. Bytecode with top-level await needs the ESM output.
  "--bytecode",
  "--format=esm",
  "--minify",
  "--sourcemap=none",
  "--define",
  'process.env.NODE_ENV="production"',
  "--define",
  `CAM_GUIDE_BUILD_DATE=${JSON.stringify(new Date().toISOString())}`,
  "--define",
  `CAM_GUIDE_COMMIT=${JSON.stringify(commit())}`,
  "--asset",
  "./dist/client",
  "--asset",
  "./drizzle",
  "--asset",
  "./drizzle-pg",
  "--asset",
  "./public",
  "src/server/main.ts",
  "--outfile",
  "dist/cam-guide",
]);
stampBuild("executable", inputs);
console.log("Built dist/cam-guide");
