// Which database this process runs on, decided once, before any table is built: the tables
// (src/server/features/*/table.ts) are built at import for this dialect (db/columns.ts).
// DATABASE_URL is the one variable read outside env.ts, because the tables exist before the
// configuration is parsed; env.ts validates the same variable and refuses a bad one.

export type Dialect = "sqlite" | "postgresql";

/** A postgres:// or postgresql:// address selects PostgreSQL; anything else (unset) SQLite. */
export function dialectOf(databaseUrl: string | undefined): Dialect {
  return databaseUrl && /^postgres(ql)?:\/\//i.test(databaseUrl.trim()) ? "postgresql" : "sqlite";
}

/** This process's dialect. In a browser (a shared contract built from a table) always SQLite's shape. */
export const dialect: Dialect = dialectOf(globalThis.process?.env?.DATABASE_URL);
