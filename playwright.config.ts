import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import type { Options } from "./tests/e2e/fixtures.ts";

const port = Number(process.env.E2E_PORT ?? 4310);

/**
 * Debian's Chromium: Playwright cannot download its own browser here. Its headless shell
 * (package chromium-headless-shell, what Playwright itself runs headless) when installed: the
 * same engine without the desktop browser around it, a sixth less time for the journeys.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

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

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig<Options>({
  testDir: "./tests/e2e",
  testMatch: "**/*.e2e.ts",
  fullyParallel: true,
  // Journeys spend much of their time waiting (a wizard's auto-advance, transitions, the
  // server): more workers than cores keep both cores busy. E2E_WORKERS changes it.
  workers: Number(process.env.E2E_WORKERS ?? 4),
  retries: 0,
  // Deadlines for a busy machine: a whole journey, and each condition polled within it.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  // The Nu HTML Checker over every page the journeys visited, once at the end (its Java start
  // is the cost: about a second and a half).
  globalTeardown: "./tests/e2e/validate-html.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A failed journey keeps its trace (each action, its network and the test's source) and a
    // screenshot of the page as it failed. Recording the DOM at every action as well took 14 % of
    // the journeys' CPU (506 s against 437 s with no trace), and the screencast half of it, so
    // both are left out; E2E_TRACE=on records them for a journey being investigated.
    trace:
      process.env.E2E_TRACE === "on"
        ? "retain-on-failure"
        : { mode: "retain-on-failure", screenshots: false, snapshots: false, sources: true },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // In this order: Playwright queues the projects one after another, so the journeys that must
    // follow one another on one server (two-factor), and the ones in the full browser, start
    // first, beside the rest, instead of running alone at the end.
    {
      // Turns two-factor sign-in on; its journeys follow one another on one server of the
      // file's own (port + 5, its own DATA_DIR).
      name: "admin-two-factor",
      testMatch: ["**/admin-two-factor.e2e.ts"],
      use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${port + 5}` },
    },
    {
      // Like "admin", in the full browser: its journeys follow links that open a new tab and
      // are redirected to another site, which the headless shell fetches without the
      // context's routes (the partner's page the test answers for), so it never arrives.
      name: "admin-new-tabs",
      testMatch: ["**/links.e2e.ts"],
      use: {
        ...devices["Desktop Chrome"],
        ownSite: true,
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
      },
    },
    {
      // The journeys that change content or settings: each on a site of its own, a fresh
      // DATA_DIR copied from a seeded template (tests/e2e/own-site.ts), in any order.
      name: "admin",
      testIgnore: ["**/admin-two-factor.e2e.ts"],
      testMatch: ["**/admin*.e2e.ts", "**/link-health.e2e.ts"],
      use: { ...devices["Desktop Chrome"], ownSite: true },
    },
    {
      // The visitor journeys share one server: they read what the seed made, and what they
      // write (results, progress, counts) is their own.
      name: "visitor",
      testIgnore: ["**/admin*.e2e.ts", "**/links.e2e.ts", "**/link-health.e2e.ts"],
      use: { ...devices["Desktop Chrome"] },
    },
  ],
  webServer: [server(port)],
});
