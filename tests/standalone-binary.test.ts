// The shipped artifact: dist/cam-guide copied alone into an empty directory.

import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { listensOn, waitUntilUp } from "./support/binary.ts";
import { PORT_TAKEN, testPort } from "./support/ports.ts";
import { scratchDir } from "./support/scratch.ts";

const root = join(import.meta.dir, "..");
const built = join(root, "dist", "cam-guide");
let dir = "";
let binary = "";

beforeAll(() => {
  if (!existsSync(built)) {
    const result = Bun.spawnSync(["bun", "run", "build"], { cwd: root, stdout: "ignore", stderr: "inherit" });
    if (result.exitCode !== 0) throw new Error("bun run build failed");
  }
  // Under the run's scratch folder, removed after the last test.
  dir = scratchDir("standalone");
  binary = join(dir, "cam-guide");
  copyFileSync(built, binary);
}, 180_000);

/** Starts the copy and waits for /healthz; a port another test process took meanwhile is drawn again. */
async function start(env: Record<string, string> = {}) {
  for (let attempt = 1; ; attempt++) {
    const port = testPort();
    const proc = Bun.spawn([binary], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", DATA_DIR: join(dir, "data"), PORT: String(port), HOST: "127.0.0.1", ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilUp(url, proc);
      return { proc, port, url };
    } catch (error) {
      proc.kill("SIGKILL");
      if (attempt < 5 && error instanceof Error && PORT_TAKEN.test(error.message)) continue;
      throw error;
    }
  }
}

async function stop(proc: Bun.Subprocess) {
  proc.kill("SIGTERM");
  return proc.exited;
}

describe("dist/cam-guide alone in an empty directory", () => {
  test("--help lists the commands", () => {
    const out = Bun.spawnSync([binary, "--help"], { cwd: dir }).stdout.toString();
    for (const command of ["serve", "seed", "admin reset-password", "admin reset-2fa", "healthcheck"])
      expect(out).toContain(command);
  });

  test("creates its database, serves pages, keeps data across a restart and stops cleanly on SIGTERM", async () => {
    const first = await start({ ADMIN_PASSWORD: "standalone-password-1" });
    const home = await fetch(`${first.url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Find your cam model alter ego");
    const asset = /<script type="module" src="([^"]+)"/.exec(await (await fetch(`${first.url}/terms`)).text())![1]!;
    expect((await fetch(first.url + asset)).status).toBe(200);
    // The social cards drawn by the build are embedded too.
    const card = await fetch(`${first.url}/social/girl-next-door.png`);
    expect([card.status, card.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect((await fetch(`${first.url}/nope`)).status).toBe(404);
    expect(await stop(first.proc)).toBe(0);
    expect(await new Response(first.proc.stdout).text()).toContain("stopped");
    // A clean close checkpoints the WAL: the database was really closed.
    expect(existsSync(join(dir, "data", "app.db-wal"))).toBe(false);

    // Change stored data while it is down; the restarted server must show it.
    const db = new Database(join(dir, "data", "app.db"));
    db.run("UPDATE site_settings SET brand_name = 'Kept Across Restarts' WHERE id = 1");
    db.close();

    const second = await start();
    expect(await (await fetch(`${second.url}/`)).text()).toContain("| Kept Across Restarts</title>");
    const secondOut = second.proc.stdout;
    expect(await stop(second.proc)).toBe(0);
    // The admin was created once, on the first start only.
    expect(await new Response(secondOut).text()).not.toContain("Admin account created");
  }, 60_000);

  test("a port already in use is a clear error, not a second listener", async () => {
    const first = await start();
    // A DATA_DIR of its own: a second server on the first one's DATA_DIR is refused before it listens.
    const clash = Bun.spawn([binary], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", DATA_DIR: join(dir, "clash"), PORT: String(first.port), HOST: "127.0.0.1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    // The tests' own wait is not fooled by the first server's answer on the port: it waits
    // for the second one, which exits refused (and is then started again on another port).
    expect(listensOn(first.proc.pid, first.port)).toBe(true);
    expect(listensOn(clash.pid, first.port)).toBe(false);
    await expect(waitUntilUp(first.url, clash)).rejects.toThrow(`Port ${first.port} is already in use`);
    expect(await clash.exited).toBe(1);
    expect(await stop(first.proc)).toBe(0);
  }, 30_000);

  test("a bad configuration value stops it with a readable message", async () => {
    const bad = Bun.spawn([binary], {
      cwd: dir,
      env: { PORT: "eighty", DATA_DIR: join(dir, "data") },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await bad.exited).toBe(1);
    expect(await new Response(bad.stderr).text()).toContain(
      'PORT must be a whole number from 1 to 65535 (got "eighty")',
    );
  });

  test("seed is idempotent and says what it added", () => {
    const env = { PATH: process.env.PATH ?? "", DATA_DIR: join(dir, "seeded") };
    const once = Bun.spawnSync([binary, "seed"], { cwd: dir, env }).stdout.toString();
    expect(once).toContain("added 1 siteSettings");
    const twice = Bun.spawnSync([binary, "seed"], { cwd: dir, env }).stdout.toString();
    expect(twice).toContain("nothing to add");
  });
});
