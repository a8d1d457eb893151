import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "#tests/support/scratch.ts";
import { siteOnDisk } from "#tests/support/site-on-disk.ts";
import { backupsBesideData } from "./files.ts";

// Deleting a backup from the admin, and the warning while backups share the site's disk.

describe("deleting a backup", () => {
  test("one made with Back up now is deleted; a scheduled one, an unknown name and a guest are refused", async () => {
    const site = await siteOnDisk();
    await site.backups.run("manual");
    await site.backups.idle();
    await site.backups.run("schedule");
    await site.backups.idle();
    const files = (await site.overview()).files;
    const manual = files.find((file) => file.kind === "manual")!.name;
    const automatic = files.find((file) => file.kind === "automatic")!.name;
    const remove = (name: string) => site.asAdmin(`/api/admin/backups/files/${name}`, { method: "DELETE" });

    const guest = await site.request(`/api/admin/backups/files/${manual}`, { method: "DELETE" });
    expect(guest.status).toBe(401);
    const scheduled = await remove(automatic);
    expect(scheduled.status).toBe(409);
    expect(((await scheduled.json()) as { error: string }).error).toMatch(/only backups made with "Back up now"/);
    for (const name of ["cam-guide-2020-01-01T00-00-00Z.manual.tar", "notes.txt", "..%2Fapp.db"]) {
      const unknown = await remove(name);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: string }).error).toBe("No backup file with that name.");
    }

    const deleted = await remove(manual);
    expect(deleted.status).toBe(200);
    expect(existsSync(join(site.backupDir, manual))).toBe(false);
    const after = await site.overview();
    expect(after.files.map((file) => file.name)).toEqual([automatic]);
    // The run that wrote it stays in the record.
    expect(after.runs.map((run) => run.status)).toEqual(["ok", "ok"]);
    expect((await remove(manual)).status).toBe(404);
    expect(existsSync(join(site.dataDir, "app.db"))).toBe(true);
  });
});

describe("backups on the site's own disk", () => {
  test("the default folder inside DATA_DIR is warned about, before and after it exists", async () => {
    const site = await siteOnDisk();
    expect((await site.overview()).besideData).toBe(true);
    mkdirSync(site.backupDir);
    expect((await site.overview()).besideData).toBe(true);
  });

  test("a folder outside DATA_DIR is warned about on the same file system, not on another", () => {
    const dataDir = scratchDir("data");
    expect(backupsBesideData(dataDir, join(scratchDir("elsewhere"), "not-yet", "backups"))).toBe(true);
    // /dev/shm is a memory file system of its own on Linux; where it is not, the case is skipped.
    const other = "/dev/shm";
    if (existsSync(other) && statSync(other).dev !== statSync(dataDir).dev)
      expect(backupsBesideData(dataDir, join(other, "cam-guide-backups-test"))).toBe(false);
  });
});
