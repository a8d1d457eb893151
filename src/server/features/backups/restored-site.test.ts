import { describe, expect, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "#server/db/client.ts";
import { snapshotDatabase } from "#server/db/snapshot.ts";
import { restore } from "#server/features/backups/archive.ts";
import { writeTar } from "#server/lib/tar.ts";
import { memoryLogger } from "#server/logger.ts";
import { scratchDir } from "#tests/support/scratch.ts";
import { siteOnDisk } from "#tests/support/site-on-disk.ts";
import { startRun } from "./runs.ts";
import { Backups } from "./service.ts";
import { backupRuns } from "./table.ts";

// A backup is taken while its own run is recorded as going; the site restored from it must
// not read that record as a run that died.

/** Restores `file` into a new DATA_DIR, starts its backups as a server would, and answers what the owner sees. */
async function restoredSite(file: string) {
  const dataDir = scratchDir("restored");
  await restore(dataDir, file);
  const database = openDatabase(join(dataDir, "app.db"));
  const backups = new Backups({
    db: database.db,
    dataDir,
    backupDir: join(dataDir, "backups"),
    env: { cron: null, keep: null },
    logger: memoryLogger(),
  });
  try {
    await backups.start();
    const overview = await backups.overview();
    const summary = await backups.summary();
    return { runs: overview.runs, last: summary.last, running: summary.running };
  } finally {
    await backups.stop();
    database.close();
  }
}

describe("a site restored from a backup", () => {
  test("opens with the backups it had, and no failed run for the backup it was restored from", async () => {
    const site = await siteOnDisk();
    await site.backups.run("manual");
    await site.backups.idle();
    await site.backups.run("manual");
    await site.backups.idle();
    const [second, first] = (await site.overview()).runs;
    expect([second!.status, first!.status]).toEqual(["ok", "ok"]);

    const restored = await restoredSite(join(site.backupDir, second!.file!));
    // The copy was taken before its own run ended: the run before it is the last one it knows.
    expect(restored.runs).toEqual([first!]);
    expect(restored.last).toMatchObject({ status: "ok", finishedAt: first!.finishedAt });
    expect(restored.running).toBe(false);
  });

  test("a backup that still holds a run as going (taken by an earlier version) is restored without it", async () => {
    const site = await siteOnDisk();
    await startRun(site.database.db, "schedule");
    const folder = scratchDir("earlier");
    const db = join(folder, "app.db");
    await snapshotDatabase(join(site.dataDir, "app.db"), db);
    const file = join(folder, "earlier.tar");
    const fd = openSync(file, "w");
    await writeTar(fd, [["app.db", db]]);
    closeSync(fd);
    // The live site still has its run going; the restored one has none, failed or going.
    expect(await site.database.db.select().from(backupRuns)).toHaveLength(1);
    const restored = await restoredSite(file);
    expect(restored).toEqual({ runs: [], last: null, running: false });
  });
});
