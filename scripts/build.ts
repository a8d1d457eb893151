// `bun run build`: the client bundle, then one executable (dist/cam-guide) that embeds
// it together with the migrations and public/ files.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildInputs, builtFromCurrentSources, STAMPS, stampBuild } from "./build-stamp.ts";

const root = join(import.meta.dir, "..");
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
  "--asset",
  "./dist/client",
  "--asset",
  "./drizzle",
  "--asset",
  "./public",
  "src/server/main.ts",
  "--outfile",
  "dist/cam-guide",
]);
stampBuild("executable", inputs);
console.log("Built dist/cam-guide");
