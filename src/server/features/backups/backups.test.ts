import { describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshotDatabase } from "#server/db/snapshot.ts";
import { verifyBackup } from "#server/features/backups/archive.ts";
import { siteSettings } from "#server/features/settings/table.ts";
import { readTar, writeTar } from "#server/lib/tar.ts";
import type { BackupRun, BackupSummary } from "#shared/features/backups/contract.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { siteOnDisk, UPLOAD } from "#tests/support/site-on-disk.ts";
import { autoBackup } from "./auto-backup.ts";
import { BACKUP_FILE, backupFileName, listBackupFiles, rotateBackups } from "./files.ts";

// Each backup is a child process of its own: slower than a request on a busy machine (the
// test that runs four, one after another, has twice the usual deadline).

async function entries(file: string): Promise<string[]> {
  const names: string[] = [];
  await readTar(file, async (name, _size, chunks) => {
    names.push(name);
    for await (const _ of chunks());
  });
  return names.sort();
}

describe("a backup run", () => {
  test("'Back up now' runs in a child process and writes a checked tar named with the UTC time, recorded ok", async () => {
    const site = await siteOnDisk();
    // Something already in the backup folder is never copied into a backup.
    mkdirSync(site.backupDir);
    writeFileSync(join(site.backupDir, "notes.txt"), "mine");
    const before = Date.now();
    const started = await site.asAdmin("/api/admin/backups/run", { method: "POST" });
    expect(started.status).toBe(202);
    const run = (await started.json()) as BackupRun;
    expect(run).toMatchObject({ trigger: "manual", status: "running" });
    // One at a time: a second press while it runs is refused with a reason.
    const again = await site.asAdmin("/api/admin/backups/run", { method: "POST" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/already running/);
    expect((await site.overview()).running?.id).toBe(run.id);
    await site.backups.idle();

    const { runs, files, running } = await site.overview();
    expect(running).toBeNull();
    expect(runs[0]).toMatchObject({ id: run.id, status: "ok", trigger: "manual", error: null });
    const name = runs[0]!.file!;
    expect(name).toMatch(/^cam-guide-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.manual\.tar$/);
    const stamp = Date.parse(name.slice(10, 30).replace(/T(\d\d)-(\d\d)-(\d\d)Z/, "T$1:$2:$3Z"));
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect(files).toEqual([expect.objectContaining({ name, kind: "manual", size: runs[0]!.size! })]);
    const path = join(site.backupDir, name);
    expect(await entries(path)).toEqual(["app.db", "jwt-secret", `uploads/${UPLOAD}`]);
    expect(await verifyBackup(path)).toEqual({ files: 3 });
    // Only the backup and the owner's own file: no temporary name is left behind.
    expect(readdirSync(site.backupDir).sort()).toEqual([name, "notes.txt"]);
  });

  test("a second backup never copies the first (BACKUP_DIR is left out), and the schedule's backups rotate", async () => {
    const site = await siteOnDisk({ keep: 2 });
    await site.backups.run("manual");
    await site.backups.idle();
    for (let i = 0; i < 3; i++) {
      await site.backups.run("schedule");
      await site.backups.idle();
    }
    const { runs, files } = await site.overview();
    // A failed run says why.
    expect(runs.map((r) => (r.status === "ok" ? "ok" : `${r.status}: ${r.error}`))).toEqual(["ok", "ok", "ok", "ok"]);
    // Exactly BACKUP_KEEP automatic ones, the newest, and the manual one stays.
    expect(files.map((f) => f.kind)).toEqual(["automatic", "automatic", "manual"]);
    expect(files.slice(0, 2).map((f) => f.name)).toEqual([runs[0]!.file!, runs[1]!.file!]);
    for (const file of files) expect(await entries(join(site.backupDir, file.name))).not.toContain("backups/");
    for (const file of files)
      expect((await entries(join(site.backupDir, file.name))).every((n) => !n.includes(".tar"))).toBe(true);
  }, 60_000);

  test("a run that cannot write is recorded as failed with a reason, and /healthz shows it as degraded", async () => {
    const blocker = join(scratchDir("blocked"), "a-file");
    writeFileSync(blocker, "not a folder");
    const site = await siteOnDisk({ cron: "30 3 * * *", backupDir: join(blocker, "backups") });
    const healthy = (await (await site.request("/healthz")).json()) as Record<string, unknown>;
    expect(healthy).toEqual({ status: "ok", details: { backup: { status: "ok", result: "none yet", at: null } } });

    await site.backups.run("schedule");
    await site.backups.idle();
    const [run] = (await site.overview()).runs;
    expect(run).toMatchObject({ status: "failed", trigger: "schedule", file: null });
    expect(run!.error).toMatch(/Cannot create the backup folder/);
    expect(run!.error!.split(". ").length).toBeLessThanOrEqual(2);

    const health = await site.request("/healthz");
    // The site still serves: a failed backup is a degraded detail, not an unhealthy server.
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: "ok",
      details: { backup: { status: "degraded", result: "failed", at: run!.finishedAt } },
    });
    const summary = (await (await site.asAdmin("/api/admin/backups/summary")).json()) as BackupSummary;
    expect(summary.last).toEqual({ status: "failed", finishedAt: run!.finishedAt!, size: null, error: run!.error });
  });

  test("/healthz says nothing of backups when none are scheduled", async () => {
    const site = await siteOnDisk();
    expect(await (await site.request("/healthz")).json()).toEqual({ status: "ok" });
  });
});

describe("checking a backup", () => {
  test("a tar whose database is damaged fails the check, with the reason", async () => {
    const site = await siteOnDisk();
    const folder = scratchDir("corrupt");
    const db = join(folder, "app.db");
    await snapshotDatabase(join(site.dataDir, "app.db"), db);
    const good = readFileSync(db);
    // The first page (the header and the list of tables) stays; every page after it is garbage.
    writeFileSync(db, Buffer.concat([good.subarray(0, 4096), Buffer.alloc(good.length - 4096, 0x5a)]));
    const out = join(folder, "bad.tar");
    const fd = openSync(out, "w");
    await writeTar(fd, [["app.db", db]]);
    closeSync(fd);
    await expect(verifyBackup(out)).rejects.toThrow(/^The database in the backup (is damaged|cannot be read)/);
    // A cut-off archive fails too.
    writeFileSync(out, readFileSync(out).subarray(0, 6000));
    await expect(verifyBackup(out)).rejects.toThrow();
    // The check leaves nothing behind in the folder.
    expect(readdirSync(folder).sort()).toEqual(["app.db", "bad.tar"]);
  });

  test("a killed run's leftovers (dot-names only) are removed by the next run", async () => {
    const site = await siteOnDisk();
    mkdirSync(site.backupDir);
    writeFileSync(join(site.backupDir, ".cam-guide-2026-01-01T00-00-00Z.auto.tar.pending"), "half");
    mkdirSync(join(site.backupDir, ".cam-guide-verify-abc123"));
    const result = await autoBackup({ dataDir: site.dataDir, backupDir: site.backupDir, kind: "auto", keep: 7 });
    expect(result.ok).toBe(true);
    expect(readdirSync(site.backupDir)).toEqual([(result as { file: string }).file]);
  });

  test("BACKUP_DIR must not be DATA_DIR or its uploads", async () => {
    const site = await siteOnDisk();
    for (const backupDir of [site.dataDir, join(site.dataDir, "uploads")]) {
      const result = await autoBackup({ dataDir: site.dataDir, backupDir, kind: "auto", keep: 7 });
      expect(result).toEqual({ ok: false, error: expect.stringMatching(/must be a folder of its own/) });
    }
  });
});

describe("backup files", () => {
  test("names carry the UTC time, a second one in the same second gets a number, and rotation keeps the newest", () => {
    const at = new Date("2026-11-24T03:30:00.123Z");
    expect(backupFileName(at, "auto")).toBe("cam-guide-2026-11-24T03-30-00Z.auto.tar");
    const second = backupFileName(at, "auto", (name) => name === "cam-guide-2026-11-24T03-30-00Z.auto.tar");
    expect(second).toBe("cam-guide-2026-11-24T03-30-00Z-2.auto.tar");
    const folder = scratchDir("rotate");
    for (const name of [
      "cam-guide-2026-11-22T03-30-00Z.auto.tar",
      "cam-guide-2026-11-24T03-30-00Z.auto.tar",
      second,
      "cam-guide-2026-11-01T00-00-00Z.manual.tar",
      "my-own.tar",
    ])
      writeFileSync(join(folder, name), "x");
    expect(rotateBackups(folder, 1)).toEqual([
      "cam-guide-2026-11-24T03-30-00Z.auto.tar",
      "cam-guide-2026-11-22T03-30-00Z.auto.tar",
    ]);
    expect(listBackupFiles(folder).map((f) => f.name)).toEqual([second, "cam-guide-2026-11-01T00-00-00Z.manual.tar"]);
    expect(readdirSync(folder)).toContain("my-own.tar");
    expect(BACKUP_FILE.test("../app.db")).toBe(false);
  });

  test("a download is the file as an attachment; other names, paths and guests are refused", async () => {
    const site = await siteOnDisk();
    await site.backups.run("manual");
    await site.backups.idle();
    const [file] = (await site.overview()).files;
    const res = await site.asAdmin(`/api/admin/backups/files/${file!.name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${file!.name}"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(
      new Uint8Array(readFileSync(join(site.backupDir, file!.name))),
    );
    writeFileSync(join(site.backupDir, "other.tar"), "x");
    for (const name of [
      "..%2Fapp.db",
      "..%2F..%2Fapp.db",
      "%2Fetc%2Fpasswd",
      "other.tar",
      "jwt-secret",
      "cam-guide-2026-01-01T00-00-00Z.auto.tar",
      encodeURIComponent(`../backups/${file!.name}`),
    ]) {
      const refused = await site.asAdmin(`/api/admin/backups/files/${name}`);
      expect([404, 422]).toContain(refused.status);
    }
    const guest = await site.request(`/api/admin/backups/files/${file!.name}`);
    expect(guest.status).toBe(401);
  });
});

describe("the schedule in Settings", () => {
  test("the owner's schedule and count apply at once; a bad schedule is a 422 at its field", async () => {
    const site = await siteOnDisk();
    expect((await site.overview()).schedule).toMatchObject({
      cron: null,
      keep: 7,
      cronSource: "settings",
      nextRun: null,
    });
    const saved = await site.asAdmin("/api/admin/backups/schedule", {
      method: "PUT",
      json: { cron: "30  3 * * *", keep: 3 },
    });
    expect(saved.status).toBe(200);
    const { schedule } = await site.overview();
    expect(schedule).toMatchObject({ cron: "30 3 * * *", keep: 3, cronSource: "settings" });
    expect(new Date(schedule.nextRun!).getTime()).toBeGreaterThan(Date.now());
    const bad = await site.asAdmin("/api/admin/backups/schedule", {
      method: "PUT",
      json: { cron: "every night", keep: 3 },
    });
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { details: { field: string; message: string }[] };
    expect(body.details[0]).toMatchObject({ field: "cron", message: expect.stringMatching(/5 fields/) });
    const tooMany = await site.asAdmin("/api/admin/backups/schedule", { method: "PUT", json: { cron: "", keep: 0 } });
    expect(tooMany.status).toBe(422);
    expect((await site.overview()).schedule).toMatchObject({ cron: "30 3 * * *", keep: 3 });
    // Empty: off again.
    await site.asAdmin("/api/admin/backups/schedule", { method: "PUT", json: { cron: "", keep: 3 } });
    expect((await site.overview()).schedule).toMatchObject({ cron: null, nextRun: null });
  });

  test("BACKUP_CRON and BACKUP_KEEP on the server win over the Settings", async () => {
    const site = await siteOnDisk({ cron: "0 4 * * 0", keep: 2 });
    await site.asAdmin("/api/admin/backups/schedule", { method: "PUT", json: { cron: "30 3 * * *", keep: 9 } });
    expect((await site.overview()).schedule).toMatchObject({
      cron: "0 4 * * 0",
      keep: 2,
      cronSource: "environment",
      keepSource: "environment",
    });
  });
  test("without a settings row (before the seed) a schedule is not said to be saved: 503, nothing applied", async () => {
    const site = await siteOnDisk();
    await site.database.db.delete(siteSettings);
    const saved = await site.asAdmin("/api/admin/backups/schedule", {
      method: "PUT",
      json: { cron: "30 3 * * *", keep: 3 },
    });
    expect(saved.status).toBe(503);
    expect(((await saved.json()) as { error: string }).error).toMatch(/run the seed/);
    expect((await site.overview()).schedule).toMatchObject({ cron: null, nextRun: null });
  });
});
