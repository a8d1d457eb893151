import { integer, serialId, table, text, textEnum, timestamp, timestampNow } from "#server/db/columns.ts";

/** Each backup run, scheduled or asked for in the admin, and how it ended. */
export const backupRuns = table("backup_runs", {
  id: serialId("id"),
  trigger: textEnum("trigger", ["schedule", "manual"]).notNull(),
  status: textEnum("status", ["running", "ok", "failed"]).notNull().default("running"),
  startedAt: timestampNow("started_at"),
  finishedAt: timestamp("finished_at"),
  /** The backup's file name in BACKUP_DIR, once written. */
  file: text("file"),
  size: integer("size"),
  /** Why it failed, in one sentence for the owner. */
  error: text("error"),
});
