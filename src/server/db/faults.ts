// What a failed database call says about the storage under it, as a function another
// database's driver could provide (PostgreSQL: SQLSTATE 53100 disk_full, class 58 system errors).

/**
 * "full" when the database had no room to write (SQLITE_FULL), "broken" when its file could
 * not be read or written (I/O errors, a read-only or vanished file), null for anything else.
 */
export function databaseStorageFault(error: unknown): "full" | "broken" | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return null;
  if (code === "SQLITE_FULL") return "full";
  if (/^SQLITE_(IOERR|CANTOPEN|READONLY|CORRUPT|NOTADB)/.test(code)) return "broken";
  return null;
}

/**
 * Whether a failed database call (or one in its `cause` chain) says the database file itself is
 * damaged: SQLite found a page malformed (SQLITE_CORRUPT) or no database where one was.
 */
export function databaseDamaged(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) return true;
  }
  return false;
}
