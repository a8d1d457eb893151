// `bun run test:postgres`: starts a throwaway PostgreSQL (tests/support/postgres.ts) and runs the
// tests that need it, in processes whose tables are PostgreSQL's (DATABASE_URL selects the
// dialect). Each test makes its own database on this one cluster; the cluster is removed after.
import { startCluster } from "#tests/support/postgres.ts";

const cluster = startCluster();
let code = 1;
try {
  const run = Bun.spawn(
    [
      "bun",
      "test",
      "--parallel=3",
      "--no-isolate",
      "--timeout=30000",
      // The SQLite run ignores these files; this run ignores only the component tests.
      "--path-ignore-patterns=**/*.test.tsx",
      ".pg.test.",
      ...process.argv.slice(2),
    ],
    {
      env: { ...process.env, DATABASE_URL: cluster.url(), TEST_POSTGRES_URL: cluster.url() },
      stdio: ["inherit", "inherit", "inherit"],
    },
  );
  code = await run.exited;
} finally {
  cluster.stop();
}
process.exit(code);
