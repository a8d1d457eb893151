import { Elysia, t } from "elysia";
import { fileAnswer } from "#server/lib/file-answer.ts";
import type { Logger } from "#server/logger.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { BackupScheduleInput } from "#shared/features/backups/contract.ts";
import { backupFilePath, deleteKeptBackup } from "./files.ts";
import type { Backups } from "./service.ts";

const FileName = t.Object({ name: t.String({ minLength: 1, maxLength: 100 }) });

/** Backups, mounted under /api/admin behind the admin guard (see app.ts). */
export function backupAdminRoutes(backups: Backups, backupDir: string, logger: Pick<Logger, "error">) {
  return (
    new Elysia({ name: "backups-admin" })
      // The schedule, the last runs (a running one included) and the files to download.
      .get("/backups", () => backups.overview())
      // The last finished run and whether one is going, for the admin home.
      .get("/backups/summary", () => backups.summary())
      // "Back up now": 202 with the run, which the page then polls; 409 while another runs.
      .post("/backups/run", async ({ set }) => {
        const run = await backups.run("manual");
        set.status = 202;
        return run;
      })
      // The owner's schedule and count in Settings (BACKUP_CRON / BACKUP_KEEP on the server win).
      .put("/backups/schedule", ({ body }) => backups.saveSchedule(body), adminJson(BackupScheduleInput))
      // A backup file, as an attachment: only our own backup names, only in BACKUP_DIR.
      .get(
        "/backups/files/:name",
        async ({ params, request }) => {
          const path = backupFilePath(backupDir, params.name);
          const answer =
            path &&
            (await fileAnswer(
              path,
              request,
              {
                "content-type": "application/x-tar",
                "content-disposition": `attachment; filename="${params.name}"`,
                "cache-control": "no-store",
              },
              logger,
            ));
          if (!answer) throw new HttpError(404, "No backup file with that name.");
          return answer;
        },
        { params: FileName },
      )
      // Deletes a backup that is always kept; the scheduled ones are the rotation's to delete.
      .delete(
        "/backups/files/:name",
        ({ params }) => {
          const done = deleteKeptBackup(backupDir, params.name);
          if (done === "missing") throw new HttpError(404, "No backup file with that name.");
          if (done === "automatic")
            throw new HttpError(
              409,
              'Automatic backups are deleted by the schedule, which keeps the newest ones (the number is in Settings); only backups made with "Back up now" and those taken before an upgrade can be deleted here.',
            );
          return { message: "Backup deleted" };
        },
        { params: FileName },
      )
  );
}
