// `bun run test:postgres`: starts a throwaway PostgreSQL (tests/support/postgres.ts) and runs, in
// processes whose tables are PostgreSQL's (DATABASE_URL selects the dialect):
// - the tests written for PostgreSQL (*.pg.test.ts), whole;
// - every API scenario table (tests/support/scenario.ts), the same rows the SQLite run checks.
// Each test makes its own database on this one cluster; the cluster is removed after.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Glob } from "bun";
import { startCluster } from "#tests/support/postgres.ts";

const root = join(import.meta.dir, "..");

/** Test files with an API scenario table, found by the harness's name. */
function scenarioFiles(): string[] {
  const files: string[] = [];
  for (const dir of ["src", "tests"])
    for (const file of new Glob("**/*.test.ts").scanSync(join(root, dir))) {
      const path = join(root, dir, file);
      if (/\brunScenarios\(|\brunAdminRefusals\(/.test(readFileSync(path, "utf8")))
        files.push(`./${relative(root, path)}`);
    }
  return files.sort();
}

const BUN_TEST = ["bun", "test", "--parallel=3", "--no-isolate", "--timeout=30000", "--only-failures"];
// The SQLite run ignores *.pg.test.ts (bunfig.toml); this one ignores only the component tests.
const IGNORE = "--path-ignore-patterns=**/*.test.tsx";

const cluster = startCluster();
let code = 1;
try {
  const env = { ...process.env, DATABASE_URL: cluster.url(), TEST_POSTGRES_URL: cluster.url() };
  const run = async (argv: string[]) =>
    Bun.spawn(argv, { cwd: root, env, stdio: ["inherit", "inherit", "inherit"] }).exited;
  code = await run([...BUN_TEST, IGNORE, ".pg.test."]);
  // Only the scenarios themselves ("<name>: GET /path -> 200"): the other tests in those files
  // are about SQLite or need no database.
  if (code === 0) code = await run([...BUN_TEST, IGNORE, "--test-name-pattern", " -> \\d{3}$", ...scenarioFiles()]);
} finally {
  cluster.stop();
}
process.exit(code);
