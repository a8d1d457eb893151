// A site of a journey's own: the compiled executable on a fresh DATA_DIR copied from a
// template made once per worker, on a free port. Journeys that change content or settings
// run on one each (the `ownSite` option of fixtures.ts), so they run in parallel, in any order,
// and none sees another's changes. The visitor journeys share the server Playwright starts.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCurrent } from "#tests/support/built.ts";
import { PORT_TAKEN, testPort } from "#tests/support/ports.ts";

/** The admin's password on every journey's server (and on scripts/e2e-server.ts's). */
export const ADMIN_PASSWORD = "e2e-admin-password-123";

const root = join(import.meta.dirname, "..", "..");
const binary = join(root, "dist", "cam-guide");

export interface OwnSite {
  url: string;
  dataDir: string;
  /** The one loopback port this site's link checker may reach (through LOOPBACK_LINK_HOST). */
  loopbackLinkPort: number;
  stop(): Promise<void>;
}

interface Started {
  proc: Bun.Subprocess<"ignore", "ignore", "pipe">;
  url: string;
  loopbackLinkPort: number;
}

async function start(dataDir: string): Promise<Started> {
  // Another process may take the port between its draw and the server's bind: draw again.
  for (let attempt = 1; ; attempt++) {
    const port = testPort();
    const loopbackLinkPort = testPort();
    const proc = Bun.spawn(process.env.E2E_SOURCE === "1" ? ["bun", join(root, "src/server/main.ts")] : [binary], {
      env: {
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ADMIN_USERNAME: "admin",
        ADMIN_PASSWORD,
        NODE_ENV: "production",
        // As on the shared server (scripts/e2e-server.ts): no scheduled checks, and one
        // loopback port the checker may reach, for the journeys that start a server there.
        LINK_CHECK_INTERVAL: "off",
        CAM_GUIDE_TEST_LOOPBACK_LINK_PORT: String(loopbackLinkPort),
      },
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) break;
      const status = await fetch(`${url}/healthz`).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) return { proc, url, loopbackLinkPort };
      await Bun.sleep(25);
    }
    proc.kill("SIGKILL");
    await proc.exited;
    const said = await new Response(proc.stderr).text();
    if (attempt < 5 && PORT_TAKEN.test(said)) continue;
    throw new Error(`the journey's own server did not start within 30 s: ${said}`);
  }
}

async function stopped(proc: Started["proc"]): Promise<void> {
  proc.kill("SIGTERM");
  await proc.exited;
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
