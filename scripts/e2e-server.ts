// Starts the real server for the browser tests on a fresh, temporary DATA_DIR:
// the compiled executable (what ships; E2E_SOURCE=1 runs the source instead). The DATA_DIR is
// removed when the server stops (Playwright stops it with SIGTERM), however it stops.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loopbackLinkPort } from "#tests/e2e/loopback-link-port.ts";
import { ensureCurrent } from "#tests/support/built.ts";

const root = join(import.meta.dir, "..");
const binary = join(root, "dist", "cam-guide");
// The port in its name lets a browser test find the database of the server it talks to.
const port = Number(process.env.E2E_PORT ?? "4310");
const useBinary = process.env.E2E_SOURCE !== "1";
// Built here when missing or older than the sources (both servers of a run share one build).
ensureCurrent(useBinary ? "executable" : "client");
const dataDir = mkdtempSync(join(tmpdir(), `cam-guide-e2e-${port}-`));
const cmd = useBinary ? [binary] : ["bun", join(root, "src/server/main.ts")];
console.log(`e2e server: ${useBinary ? "dist/cam-guide" : "source"} on DATA_DIR ${dataDir}`);

let code = 1;
try {
  const child = Bun.spawn(cmd, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "e2e-admin-password-123",
      NODE_ENV: "production",
      // The journeys check links only against servers they start on 127.0.0.1, when they ask:
      // the checker reaches one loopback port, through one reserved name, and nothing else
      // private. For these tests only; the server says so at every start.
      LINK_CHECK_INTERVAL: "off",
      CAM_GUIDE_TEST_LOOPBACK_LINK_PORT: String(loopbackLinkPort(port)),
    },
    stdout: "inherit",
    stderr: "inherit",
  });
  const stop = () => child.kill("SIGTERM");
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  code = await child.exited;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
