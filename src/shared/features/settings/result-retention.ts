// Plain values and words about how long saved results are kept: public pages import them
// without TypeBox (the admin input's schema is ResultRetentionInput in contract.ts).

/** Days a saved quiz or calculator result is kept when Settings name none: about six months. */
export const DEFAULT_RESULT_RETENTION_DAYS = 180;
/** The longest choice: ten years. There is no "forever": the privacy page always names a number. */
export const MAX_RESULT_RETENTION_DAYS = 3650;

/** The last pass that deleted expired results. */
export interface RetentionRun {
  /** When it finished (ISO). */
  finishedAt: string;
  /** Quiz and calculator results it deleted. */
  deleted: number;
}

/** The retention as the server applies it now. */
export interface ResultRetention {
  /** Days a result is kept, in effect now. */
  days: number;
  /** The value saved in Settings; null follows the default. */
  stored: number | null;
  defaultDays: number;
  /** The last pass since the server started; null before the first. */
  lastRun: RetentionRun | null;
}

/** "180 days", "1 day": how long results are kept, in words for the privacy page and the result pages. */
export function describeRetention(days: number): string {
  return `${days.toLocaleString("en-US")} ${days === 1 ? "day" : "days"}`;
}
