// JSON has no dates: the API sends a row's dates as ISO strings. The one conversion, so a
// timestamp column added to a table reaches every view that spreads the row, already sent.

/** A row as the API sends it: each date an ISO string. */
export type Sent<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? Exclude<T[K], Date> | string : T[K];
};

/** The row with each of its dates turned into an ISO string; every other value as it is. */
export function sent<T extends object>(row: T): Sent<T> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  ) as Sent<T>;
}
