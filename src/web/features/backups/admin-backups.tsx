import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "wouter";
import { type BackupFile, type BackupRun, describeSchedule } from "#shared/features/backups/contract.ts";
import { formatSize } from "#shared/format.ts";
import { adminApi, adminHref, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { adminPath } from "#web/admin/admin-sections.ts";
import { ConfirmDialog } from "#web/admin/confirm-dialog.tsx";
import { adminDateTime } from "#web/admin/date-time.ts";
import { toast, toastError } from "#web/stores/toast.ts";
import { BACKUP_SCHEDULE_ID } from "./backup-schedule-form.tsx";

/** While a run is going, the page asks again this often. */
const POLL_MS = 1000;

export const BACKUP_PRIVACY =
  "A backup holds the whole site: the database (with your sign-in data), the session secret and the uploads. Anyone who has a backup file could sign in as you: keep downloaded backups private.";

const TRIGGER: Record<BackupRun["trigger"], string> = { schedule: "Scheduled", manual: "Back up now" };

const FILE_KIND: Record<BackupFile["kind"], string> = {
  automatic: "Automatic",
  manual: "Back up now (kept)",
  "pre-migration": "Before an upgrade (kept)",
};

function Result({ run }: { run: BackupRun }) {
  if (run.status === "running") return <span aria-busy="true">Running...</span>;
  if (run.status === "ok") return <span className="backup-ok">OK</span>;
  return (
    <span className="backup-failed">
      <strong>Failed:</strong> {run.error}
    </span>
  );
}

/** /admin/backups: the schedule, "Back up now", the last runs and the backup files to download. */
export function BackupsTab() {
  const overview = useQuery({
    ...adminQuery(adminApi.backups),
    // Polled while a run is going, so its end shows without a reload.
    refetchInterval: (query) => (query.state.data?.running ? POLL_MS : false),
  });
  const start = useAdminChange(() => adminApi.backups.run.post());
  const remove = useAdminChange((name: string) => at(adminApi.backups.files, { name }).delete());
  // The run started from this page: the status line follows it to its end, then says how it ended.
  const [startedId, setStartedId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  if (!overview.data) return <p aria-busy="true">Loading backups...</p>;
  const { schedule, running, runs, files, besideData, elsewhere } = overview.data;
  // On PostgreSQL the database is backed up where it lives: this section says so, and no more.
  if (elsewhere)
    return (
      <section aria-labelledby="backups-heading">
        <h2 id="backups-heading">Backups</h2>
        <p role="note" className="backup-warning">
          {elsewhere}
        </p>
      </section>
    );
  const busy = running !== null || start.isPending;
  const started = runs.find((run) => run.id === startedId);

  const backUpNow = () =>
    start.mutate(undefined, {
      onSuccess: (run) => setStartedId(run.id),
      onError: (failure) => toastError(failure.message),
    });

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting, {
      onSuccess: () => {
        toast({ title: "Backup deleted", description: `${deleting} was deleted.` });
        setDeleting(null);
      },
      onError: (failure) => {
        toastError(failure.message, "The backup was not deleted");
        setDeleting(null);
      },
    });
  };

  return (
    <section aria-labelledby="backups-heading">
      <h2 id="backups-heading">Backups</h2>
      <p role="note">{BACKUP_PRIVACY}</p>
      {besideData && (
        <p role="note" className="backup-warning" id="backups-beside-data">
          <strong>These backups are on the same disk as the site.</strong> If that disk fails or is wiped, the site and
          its backups are lost together. Set BACKUP_DIR on the server to a folder on another disk (a second drive or a
          mounted network share), or download each backup and keep it somewhere else.
        </p>
      )}
      <h3>Schedule</h3>
      <p>
        {describeSchedule(schedule.cron)}
        {schedule.nextRun && (
          <>
            {" "}
            Next backup: <time dateTime={schedule.nextRun}>{adminDateTime(schedule.nextRun)}</time>.
          </>
        )}
        <br />
        <small>
          The newest {schedule.keep} automatic backups are kept; backups made with "Back up now" are always kept.{" "}
          {schedule.cronSource === "environment" ? (
            "The schedule is set by BACKUP_CRON on the server."
          ) : (
            <Link href={`${adminPath("settings")}#${BACKUP_SCHEDULE_ID}`}>Change the schedule in Settings</Link>
          )}
          {schedule.cronSource === "environment" ? " " : ". "}
          Backups are written to <code>{schedule.folder}</code> on the server.
        </small>
      </p>
      <p>
        <button type="button" onClick={backUpNow} disabled={busy} aria-busy={busy}>
          Back up now
        </button>
      </p>
      <p role="status">
        {running
          ? `Backing up (started ${adminDateTime(running.startedAt)})... this page updates when it is done.`
          : started?.status === "ok"
            ? `The backup is done (${formatSize(started.size ?? 0)}); its file is listed below.`
            : started?.status === "failed"
              ? "The backup failed; the reason is in the list below."
              : ""}
      </p>

      <h3 id="backup-runs-heading">Last runs</h3>
      {runs.length === 0 ? (
        <p>No backup has run yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="admin-table" aria-labelledby="backup-runs-heading">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Trigger</th>
                <th scope="col">Size</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id}>
                  <td data-label="Started">
                    <time dateTime={run.startedAt}>{adminDateTime(run.startedAt)}</time>
                  </td>
                  <td data-label="Trigger">{TRIGGER[run.trigger]}</td>
                  <td data-label="Size">{run.size === null ? "-" : formatSize(run.size)}</td>
                  <td data-label="Result">
                    <Result run={run} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h3 id="backup-files-heading">Backup files</h3>
      {files.length === 0 ? (
        <p>No backup file in the folder yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="admin-table" aria-labelledby="backup-files-heading">
            <thead>
              <tr>
                <th scope="col">Written</th>
                <th scope="col">Kind</th>
                <th scope="col">Size</th>
                <th scope="col">File</th>
              </tr>
            </thead>
            <tbody>
              {files.map((file) => (
                <tr key={file.name}>
                  <td data-label="Written">
                    <time dateTime={file.writtenAt}>{adminDateTime(file.writtenAt)}</time>
                  </td>
                  <td data-label="Kind">{FILE_KIND[file.kind]}</td>
                  <td data-label="Size">{formatSize(file.size)}</td>
                  <td data-label="File">
                    <a href={adminHref(at(adminApi.backups.files, { name: file.name }))} download={file.name}>
                      Download <span className="visually-hidden">{file.name}</span>
                    </a>
                    {file.kind !== "automatic" && (
                      <>
                        {" "}
                        <button
                          type="button"
                          className="danger outline small-button"
                          onClick={() => setDeleting(file.name)}
                        >
                          Delete <span className="visually-hidden">{file.name}</span>
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this backup?"
        message={`${deleting ?? ""} is deleted from the server for good. A copy you downloaded is not affected.`}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </section>
  );
}
