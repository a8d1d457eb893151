// The shipped executable on a short schedule: backups run in a child process of the real
// server, rotate to BACKUP_KEEP and are listed for the admin, with the result in /healthz.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { BackupOverview } from "#shared/features/backups/contract.ts";
import { ensureBuilt, type Running, startServer } from "./support/binary.ts";
import { scratchDir } from "./support/scratch.ts";

setDefaultTimeout(60_000);

const PASSWORD = "durable-password-123";
let server: Running | null = null;
afterAll(async () => {
  server?.proc.kill("SIGTERM");
  await server?.proc.exited;
});

/** Asks `check` until it answers a value (not undefined), or fails after `ms`. */
async function until<T>(check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await Bun.sleep(200);
  }
}

test("BACKUP_CRON every 2 seconds with BACKUP_KEEP=2: runs happen, are checked, rotate to 2 and show in the admin", async () => {
  ensureBuilt();
  const dataDir = scratchDir("auto-backups");
  server = await startServer(dataDir, { BACKUP_CRON: "*/2 * * * * *", BACKUP_KEEP: "2" });
  const { url } = server;
  const signIn = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "admin", password: PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  const overview = async () =>
    (await (await fetch(`${url}/api/admin/backups`, { headers: { cookie } })).json()) as BackupOverview;

  // Three scheduled runs finished well: more than BACKUP_KEEP, so rotation has had to delete.
  const seen = await until(async () => {
    const now = await overview();
    return now.runs.filter((run) => run.status === "ok").length >= 3 ? now : undefined;
  });
  expect(seen.schedule).toMatchObject({ cron: "*/2 * * * * *", keep: 2, cronSource: "environment" });
  expect(seen.runs.every((run) => run.trigger === "schedule" && run.status !== "failed")).toBe(true);
  const settled = await until(async () => {
    const now = await overview();
    return now.running ? undefined : now;
  });
  expect(settled.files.map((file) => file.kind)).toEqual(["automatic", "automatic"]);
  const onDisk = readdirSync(join(dataDir, "backups")).filter((name) => !name.startsWith("."));
  expect(onDisk.sort()).toEqual(settled.files.map((file) => file.name).sort());
  for (const name of onDisk) expect(name).toMatch(/^cam-guide-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ(-\d+)?\.auto\.tar$/);
  // The newest file is the newest ok run's.
  expect(settled.files[0]!.name).toBe(settled.runs.find((run) => run.status === "ok")!.file!);

  const health = (await (await fetch(`${url}/healthz`)).json()) as {
    details: { backup: { status: string; result: string } };
  };
  expect(health.details.backup).toMatchObject({ status: "ok", result: "ok" });
  const download = await fetch(`${url}/api/admin/backups/files/${settled.files[0]!.name}`, { headers: { cookie } });
  expect(download.status).toBe(200);
  expect(download.headers.get("content-disposition")).toContain("attachment");
});
