import { type Static, Type } from "@sinclair/typebox";

/** Automatic backups kept when neither the server nor the Settings say otherwise. */
export const DEFAULT_KEEP = 7;
export const MAX_KEEP = 365;

/** What the owner saves in Settings: the schedule (empty: off) and how many automatic backups to keep. */
export const BackupScheduleInput = Type.Object({
  cron: Type.String({
    maxLength: 100,
    pattern: "^[^\\u0000-\\u001F\\u007F]*$",
    error: 'The schedule must be a cron schedule such as "30 3 * * *" (at most 100 characters), or empty for off',
  }),
  keep: Type.Integer({
    minimum: 1,
    maximum: MAX_KEEP,
    error: `Backups to keep must be a whole number from 1 to ${MAX_KEEP}`,
  }),
});
export type BackupScheduleInput = Static<typeof BackupScheduleInput>;

/** The schedule in force and where each part comes from. */
export interface BackupSchedule {
  /** The cron schedule; null when automatic backups are off. */
  cron: string | null;
  keep: number;
  /** "environment": BACKUP_CRON on the server decides (read-only here); "settings": the owner's choice. */
  cronSource: "environment" | "settings";
  keepSource: "environment" | "settings";
  /** When the next automatic backup starts (ISO time); null when off. */
  nextRun: string | null;
  /** The folder backups are written to, as the server sees it. */
  folder: string;
}

export interface BackupRun {
  id: number;
  trigger: "schedule" | "manual";
  status: "running" | "ok" | "failed";
  startedAt: string;
  finishedAt: string | null;
  file: string | null;
  size: number | null;
  error: string | null;
}

export interface BackupFile {
  name: string;
  /**
   * "automatic": kept by count; "manual": made with "Back up now", always kept;
   * "pre-migration": taken at a start before an upgrade changed the database, always kept.
   */
  kind: "automatic" | "manual" | "pre-migration";
  size: number;
  /** When it was written (ISO time). */
  writtenAt: string;
}

/** GET /api/admin/backups: everything the Backups section shows. */
export interface BackupOverview {
  schedule: BackupSchedule;
  running: BackupRun | null;
  runs: BackupRun[];
  files: BackupFile[];
  /**
   * True while BACKUP_DIR is inside DATA_DIR or on the same disk (file system): a backup
   * there is lost with the disk it was meant to replace.
   */
  besideData: boolean;
  /**
   * Why cam-guide takes no backup here, and what to do instead, when the database is
   * PostgreSQL (backed up where it lives); null on SQLite.
   */
  elsewhere: string | null;
}

/** The last finished backup run, for the admin home and /healthz. */
export interface LastBackup {
  status: "ok" | "failed";
  finishedAt: string;
  size: number | null;
  error: string | null;
}

/** GET /api/admin/backups/summary: the last finished run, whether one runs now, and the schedule. */
export interface BackupSummary {
  last: LastBackup | null;
  running: boolean;
  schedule: BackupSchedule;
}

/** The schedules offered in Settings besides a custom one. */
export const SCHEDULE_CHOICES = [
  { value: "", label: "Off" },
  { value: "30 3 * * *", label: "Every night at 03:30" },
  { value: "30 3 * * 0", label: "Every Sunday at 03:30" },
] as const;

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (n: string) => n.padStart(2, "0");

/** A cron schedule in words for the common shapes; otherwise the schedule itself. */
export function describeSchedule(cron: string | null): string {
  if (!cron) return "Off: no automatic backups.";
  const parts = cron.trim().split(/\s+/);
  const [minute, hour, day, month, weekday] = parts.length === 5 ? parts : [];
  const number = (value: string | undefined, max: number) =>
    value !== undefined && /^\d{1,2}$/.test(value) && Number(value) <= max;
  if (number(minute, 59) && number(hour, 23) && day === "*" && month === "*") {
    const time = `${pad(hour!)}:${pad(minute!)}`;
    if (weekday === "*") return `Every day at ${time} (server time).`;
    if (number(weekday, 7)) return `Every ${WEEKDAYS[Number(weekday) % 7]} at ${time} (server time).`;
  }
  return `On the schedule "${cron}" (server time).`;
}
