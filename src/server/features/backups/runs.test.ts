import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { backupRunLocked, lockBackupRun } from "#server/db/lock.ts";
import { verifyBackup } from "#server/features/backups/archive.ts";
import type { BackupSummary } from "#shared/features/backups/contract.ts";
import { siteOnDisk } from "#tests/support/site-on-disk.ts";
import { autoBackup } from "./auto-backup.ts";
import { parseReport } from "./backup-process.ts";
import { backupCommand } from "./child.ts";
import { PROCESS_GONE } from "./runs.ts";
import { backupRuns } from "./table.ts";

// Who owns a run and who records it: the backup process, holding the run lock in DATA_DIR,
// writes its own record; a server records only the end of a run whose process is gone.

// Each backup is a child process of its own: slower than a request on a busy machine.

/** Asks `check` until it holds, or fails after 20 s. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await Bun.sleep(50);
  }
}

describe("runs whose process is gone", () => {
  test("a run whose process is gone is failed at the next start; one whose file was named succeeded", async () => {
    const site = await siteOnDisk();
    const { db } = site.database;
    // A run killed before its file was named, and one killed between naming and recording.
    const [lost] = await db.insert(backupRuns).values({ trigger: "schedule", status: "running" }).returning();
    const written = await autoBackup({ dataDir: site.dataDir, backupDir: site.backupDir, kind: "manual", keep: 7 });
    if (!written.ok) throw new Error(written.error);
    const [named] = await db
      .insert(backupRuns)
      .values({ trigger: "manual", status: "running", file: written.file })
      .returning();
    await site.backups.start();
    const { runs } = await site.overview();
    expect(runs.find((run) => run.id === lost!.id)).toMatchObject({
      status: "failed",
      error: PROCESS_GONE,
      file: null,
    });
    expect(runs.find((run) => run.id === named!.id)).toMatchObject({
      status: "ok",
      file: written.file,
      size: written.size,
      error: null,
    });
  });

  test("a run another process owns is left running, refused beside, skipped by the schedule, and settled once it is gone", async () => {
    const site = await siteOnDisk();
    const { db } = site.database;
    const [stale] = await db.insert(backupRuns).values({ trigger: "schedule", status: "running" }).returning();
    // The lock held as a backup process holds it (here by this test), with the run it recorded.
    const lock = lockBackupRun(site.dataDir)!;
    const [owned] = await db.insert(backupRuns).values({ trigger: "manual", status: "running" }).returning();
    await site.backups.start();
    const overview = await site.overview();
    expect(overview.running?.id).toBe(owned!.id);
    // The older record's process is gone: only the newest belongs to the lock.
    expect(overview.runs.find((run) => run.id === stale!.id)).toMatchObject({ status: "failed", error: PROCESS_GONE });
    const refused = await site.asAdmin("/api/admin/backups/run", { method: "POST" });
    expect(refused.status).toBe(409);
    const stamp = `${owned!.startedAt.toISOString().slice(0, 19).replace("T", " ")} UTC`;
    expect(((await refused.json()) as { error: string }).error).toBe(
      `A backup is already running (started at ${stamp}); wait for it to finish, then try again.`,
    );
    expect((await (await site.asAdmin("/api/admin/backups/summary")).json()) as BackupSummary).toMatchObject({
      running: true,
    });
    const every = { cron: "* * * * * *", keep: 7 };
    expect((await site.asAdmin("/api/admin/backups/schedule", { method: "PUT", json: every })).status).toBe(200);
    await until(() => site.logger.lines.some((line) => line.includes("scheduled backup skipped")));
    expect(site.logger.lines.find((line) => line.includes("scheduled backup skipped"))).toContain(
      `started at ${stamp}`,
    );
    expect((await db.select().from(backupRuns)).length).toBe(2);
    await site.asAdmin("/api/admin/backups/schedule", { method: "PUT", json: { cron: "", keep: 7 } });
    // The owner dies without recording its end: noticed without anyone asking.
    lock.release();
    await until(async () => {
      const [row] = await db.select().from(backupRuns).where(eq(backupRuns.id, owned!.id));
      return row!.status === "failed";
    });
  });
});

describe("the backup process", () => {
  async function backupAuto(site: Awaited<ReturnType<typeof siteOnDisk>>, kind = "manual") {
    const child = Bun.spawn(backupCommand(kind as "manual", 7), {
      env: { ...process.env, DATA_DIR: site.dataDir, BACKUP_DIR: site.backupDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    return { code, reports: out.trim().split("\n").map(parseReport) };
  }

  test("records its own run (started, then the file and size), with no server watching", async () => {
    const site = await siteOnDisk();
    const { code, reports } = await backupAuto(site);
    expect(code).toBe(0);
    const [started, result] = reports as unknown as [
      { started: { id: number } },
      { ok: true; file: string; size: number },
    ];
    const [row] = await site.database.db.select().from(backupRuns).where(eq(backupRuns.id, started.started.id));
    expect(row).toMatchObject({ status: "ok", trigger: "manual", file: result.file, size: result.size, error: null });
    expect(await verifyBackup(join(site.backupDir, result.file))).toEqual({ files: 3 });
  });

  test("says busy and records nothing while another process holds the run lock", async () => {
    const site = await siteOnDisk();
    const lock = lockBackupRun(site.dataDir)!;
    try {
      const { code, reports } = await backupAuto(site, "auto");
      expect({ code, reports }).toEqual({ code: 1, reports: [{ busy: true }] });
      expect(await site.database.db.select().from(backupRuns)).toEqual([]);
    } finally {
      lock.release();
    }
    expect(backupRunLocked(site.dataDir)).toBe(false);
    expect((await backupAuto(site, "auto")).code).toBe(0);
  });
});
