// A site of a journey's own: the compiled executable on a fresh DATA_DIR copied from a
// template made once per worker, on a free port. Journeys that change content or settings
// run on one each (the `ownSite` option of fixtures.ts), so they run in parallel, in any order,
// and none sees another's changes. The visitor journeys share the server Playwright starts.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Running, startServer, stopServer } from "#tests/support/binary.ts";
import { ensureCurrent } from "#tests/support/built.ts";
import { testPort } from "#tests/support/ports.ts";

/** The admin's password on every journey's server (and on scripts/e2e-server.ts's). */
export const ADMIN_PASSWORD = "e2e-admin-password-123";

const root = join(import.meta.dirname, "..", "..");

export interface OwnSite {
  url: string;
  dataDir: string;
  /** The one loopback port this site's link checker may reach (through LOOPBACK_LINK_HOST). */
  loopbackLinkPort: number;
  stop(): Promise<void>;
}

interface Started {
  proc: Running["proc"];
  url: string;
  loopbackLinkPort: number;
}

async function start(dataDir: string): Promise<Started> {
  const loopbackLinkPort = testPort();
  const server = await startServer(
    dataDir,
    {
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD,
      NODE_ENV: "production",
      // As on the shared server (scripts/e2e-server.ts): no scheduled checks, and one
      // loopback port the checker may reach, for the journeys that start a server there.
      LINK_CHECK_INTERVAL: "off",
      CAM_GUIDE_TEST_LOOPBACK_LINK_PORT: String(loopbackLinkPort),
    },
    process.env.E2E_SOURCE === "1" ? { command: ["bun", join(root, "src/server/main.ts")] } : {},
  );
  // Read what the server says, so a long journey never fills its pipes and blocks it.
  void new Response(server.proc.stdout).text();
  void new Response(server.proc.stderr).text();
  return { proc: server.proc, url: server.url, loopbackLinkPort };
}

/** SIGTERM, then SIGKILL if the server has not stopped within its deadline (stopServer). */
async function stopped(proc: Started["proc"]): Promise<void> {
  await stopServer({ proc });
}

let template: Promise<string> | undefined;

/** A DATA_DIR made and seeded by the executable's first start, then stopped cleanly: once per worker. */
function templateDataDir(): Promise<string> {
  template ??= (async () => {
    ensureCurrent(process.env.E2E_SOURCE === "1" ? "client" : "executable");
    const dir = mkdtempSync(join(tmpdir(), "cam-guide-e2e-template-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    await stopped((await start(dir)).proc);
    return dir;
  })();
  return template;
}

export async function startOwnSite(): Promise<OwnSite> {
  const dataDir = mkdtempSync(join(tmpdir(), "cam-guide-e2e-own-"));
  try {
    cpSync(await templateDataDir(), dataDir, { recursive: true });
    const { proc, url, loopbackLinkPort } = await start(dataDir);
    return {
      url,
      dataDir,
      loopbackLinkPort,
      async stop() {
        await stopped(proc);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
