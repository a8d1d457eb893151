// A database server that cannot be reached now (PostgreSQL stopped, restarting, out of
// connections, the network away): told apart from other errors, so a request answers 503 and
// a start stops with the real reason.
/** The error at the bottom of `error`'s causes (drizzle wraps the driver's in "Failed query: …"). */
export function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error && current.cause !== undefined; depth++)
    current = current.cause;
  return current;
}

/** Codes of a database that cannot be reached now (the driver's, and PostgreSQL's SQLSTATE). */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/**
 * What to say when `error` means the database server cannot be reached now (stopped,
 * restarting, out of connections, the network away), in one line; null for any other error.
 * A moment later the same request may work.
 */
export function databaseUnreachable(error: unknown): string | null {
  const root = rootCause(error) as { code?: unknown; message?: unknown } | null;
  const code = typeof root?.code === "string" ? root.code : "";
  if (!UNREACHABLE.has(code) && !code.startsWith("08")) return null;
  const message = typeof root?.message === "string" ? root.message.split("\n")[0] : "";
  return message ? `${message} (${code})` : code;
}

/**
 * Whether `error` is PostgreSQL refusing a value's characters (a NUL, U+0000, which its text
 * cannot hold): the request's fault, answered 400 (SQLite stores or compares such text as it is).
 */
export function unstorableText(error: unknown): boolean {
  const code = (rootCause(error) as { code?: unknown } | null)?.code;
  return code === "22021" || code === "22P05";
}

/**
 * Whether `error` is PostgreSQL refusing a row that a unique index already holds: two requests
 * that each found a name free wrote it at the same moment (PostgreSQL runs transactions side by
 * side; SQLite one after another, so the second finds it taken). Answered 409.
 */
export function uniqueViolation(error: unknown): boolean {
  return (rootCause(error) as { code?: unknown } | null)?.code === "23505";
}

/**
 * A failed query as the log should hold it: the database's own words and code, and the start of
 * the statement, never its values (a whole post, a password hash). Null when `error` is no
 * failed query.
 */
export function failedQuery(error: unknown): { cause: string; code: string; query: string } | null {
  const root = rootCause(error) as { code?: unknown; message?: unknown } | null;
  if (root === error || !(error instanceof Error) || !("query" in error)) return null;
  const query = String((error as { query: unknown }).query);
  return {
    cause: typeof root?.message === "string" ? root.message.split("\n")[0]! : String(root),
    code: typeof root?.code === "string" ? root.code : "",
    query: query.length > 200 ? `${query.slice(0, 200)}…` : query,
  };
}
