import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 4310);
// The admin journeys change content; they get a server and a DATA_DIR of their own so the
// visitor journeys running beside them see the seed as it is.
const adminPort = port + 1;

function server(p: number) {
  return {
    // The real server (the compiled executable when built) on a fresh temporary DATA_DIR.
    command: `bun scripts/e2e-server.ts`,
    url: `http://127.0.0.1:${p}/healthz`,
    reuseExistingServer: false,
    // Long enough for a first build of the executable (scripts/e2e-server.ts builds it when
    // it is missing or older than the sources).
    timeout: 120_000,
    env: { E2E_PORT: String(p) },
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    // Without this Playwright SIGKILLs the server, and its temporary DATA_DIR stays behind.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  };
}

export default defineConfig({
  testDir: "./tests/e2e",
  testMatch: "**/*.e2e.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright cannot download its own browser here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    {
      name: "visitor",
      testIgnore: ["**/admin*.e2e.ts", "**/links.e2e.ts", "**/link-health.e2e.ts"],
      use: { ...devices["Desktop Chrome"] },
    },
    {
      // Before the other admin journeys, which change links and write counts of their own:
      // link health points every link at a loopback server for a moment, and the scripted
      // visit compares the counts before and after it.
      name: "admin-first",
      testMatch: ["**/link-health.e2e.ts", "**/admin-analytics-visit.e2e.ts"],
      use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${adminPort}` },
    },
    {
      // Writes its own counts for the analytics page, alone, once the scripted visit is done.
      name: "admin-analytics",
      dependencies: ["admin-first"],
      testMatch: ["**/admin-analytics.e2e.ts"],
      use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${adminPort}` },
    },
    {
      name: "admin",
      dependencies: ["admin-analytics"],
      testIgnore: ["**/admin-analytics-visit.e2e.ts", "**/admin-analytics.e2e.ts", "**/admin-two-factor.e2e.ts"],
      // The journeys that change content (links.e2e.ts changes a platform and an offer).
      testMatch: ["**/admin*.e2e.ts", "**/links.e2e.ts"],
      use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${adminPort}` },
    },
    {
      // Turns two-factor sign-in on, so it starts a server of its own (port + 5, its own DATA_DIR).
      name: "admin-two-factor",
      testMatch: ["**/admin-two-factor.e2e.ts"],
      use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${port + 5}` },
    },
  ],
  webServer: [server(port), server(adminPort)],
});
