import { useIsFetching, useQuery, useQueryClient } from "@tanstack/react-query";
import { type RefObject, useEffect, useId, useRef } from "react";
import {
  type BackupSchedule,
  BackupScheduleInput,
  describeSchedule,
  MAX_KEEP,
  SCHEDULE_CHOICES,
} from "#shared/features/backups/contract.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { adminDateTime } from "#web/admin/date-time.ts";
import { Field } from "#web/admin/field.tsx";
import { saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { revealHeading } from "#web/lib/scroll.ts";

const CUSTOM = "custom";

/** The fragment of Settings' address that opens it at the backup schedule (the Backups page links there). */
export const BACKUP_SCHEDULE_ID = "backup-schedule";

/**
 * Opened at `#backup-schedule`: the heading takes the focus and shows below the header once
 * the settings above it have loaded (their forms would push it down).
 */
function useRevealWhenNamed(heading: RefObject<HTMLHeadingElement | null>) {
  const queryClient = useQueryClient();
  // Re-rendered as reads start and end; the client's own count also sees the reads that the
  // forms above started in this very commit, before any re-render.
  const fetching = useIsFetching();
  const revealed = useRef(false);
  useEffect(() => {
    if (revealed.current || window.location.hash !== `#${BACKUP_SCHEDULE_ID}`) return;
    if (fetching > 0 || queryClient.isFetching() > 0) return;
    revealed.current = true;
    revealHeading(heading.current);
  }, [fetching, heading, queryClient]);
}

/** Settings' "Backups" part: when automatic backups run and how many are kept (applied at once). */
export function BackupScheduleForm() {
  const current = useQuery(adminQuery(adminApi.backups));
  if (!current.data) return <p aria-busy="true">Loading the backup schedule...</p>;
  return <BackupScheduleEditor schedule={current.data.schedule} />;
}

function BackupScheduleEditor({ schedule }: { schedule: BackupSchedule }) {
  const fromServer = schedule.cronSource === "environment";
  const editor = useAdminForm({
    initial: { cron: fromServer ? "" : (schedule.cron ?? ""), keep: schedule.keep },
    schema: BackupScheduleInput,
    body: (form: BackupScheduleInput) => ({ cron: form.cron.trim(), keep: form.keep }),
  });
  const { form, setForm, error } = editor;
  const save = useAdminChange((body: BackupScheduleInput) => adminApi.backups.schedule.put(body));
  const helpId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useRevealWhenNamed(heading);
  const choice = SCHEDULE_CHOICES.some((c) => c.value === form.cron) ? form.cron : CUSTOM;

  const send = (body: BackupScheduleInput, value: BackupScheduleInput) =>
    saveForm(editor, save, body, value, { saved: "Backup schedule saved", next: body });

  return (
    <form
      {...editor.formProps(send)}
      id={BACKUP_SCHEDULE_ID}
      className="admin-form"
      aria-labelledby="backup-schedule-heading"
    >
      <h2 id="backup-schedule-heading" ref={heading} tabIndex={-1}>
        Backups
      </h2>
      <fieldset>
        <legend>Automatic backups</legend>
        <p id={helpId}>
          <small>
            {describeSchedule(schedule.cron)}
            {schedule.nextRun ? ` Next backup: ${adminDateTime(schedule.nextRun)}.` : ""} Each backup is checked after
            it is written; see them and download them in Backups.
          </small>
        </p>
        {fromServer ? (
          <p>
            Schedule: <code>{schedule.cron ?? "off"}</code> <small>(set by BACKUP_CRON on the server)</small>
          </p>
        ) : (
          <>
            <Field label="When to back up">
              {(props) => (
                <select
                  {...props}
                  aria-describedby={helpId}
                  value={choice}
                  onChange={(e) => setForm({ ...form, cron: e.target.value === CUSTOM ? "0 4 * * *" : e.target.value })}
                >
                  {SCHEDULE_CHOICES.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                  <option value={CUSTOM}>Custom (cron schedule)</option>
                </select>
              )}
            </Field>
            {choice === CUSTOM && (
              <Field label="Cron schedule" error={error("cron")}>
                {(props) => (
                  <>
                    <input
                      {...props}
                      value={form.cron}
                      spellCheck={false}
                      autoComplete="off"
                      onChange={(e) => setForm({ ...form, cron: e.target.value })}
                    />
                    <small>
                      Minute, hour, day of the month, month, weekday (0 is Sunday), in the server's time zone: "0 4 * *
                      1" is every Monday at 04:00.
                    </small>
                  </>
                )}
              </Field>
            )}
          </>
        )}
        {schedule.keepSource === "environment" ? (
          <p>
            Automatic backups kept: {schedule.keep} <small>(set by BACKUP_KEEP on the server)</small>
          </p>
        ) : (
          <Field label="Automatic backups to keep" error={error("keep")}>
            {(props) => (
              <>
                <input
                  {...props}
                  type="number"
                  min={1}
                  max={MAX_KEEP}
                  value={Number.isNaN(form.keep) ? "" : form.keep}
                  onChange={(e) => setForm({ ...form, keep: e.target.valueAsNumber })}
                />
                <small>Older automatic backups are deleted; backups made with "Back up now" are always kept.</small>
              </>
            )}
          </Field>
        )}
      </fieldset>
      {editor.elsewhere}
      {!(fromServer && schedule.keepSource === "environment") && (
        <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
          Save Backup Schedule
        </button>
      )}
    </form>
  );
}
