// PostgreSQL, the opt-in second database (DATABASE_URL=postgres://…): drizzle over the
// `postgres` driver, whose pool the services share. The same tables as SQLite, built with
// PostgreSQL's column helpers (db/columns.ts), and migrations of their own in drizzle-pg/.
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { resourcePath } from "#server/resources.ts";
import { type JobName, registerJobRunner } from "./jobs.ts";
import * as schema from "./schema.ts";
import { registerTransactionRunner } from "./transaction.ts";
import type { Db } from "./types.ts";

export interface PostgresHandle {
  dialect: "postgresql";
  /** What services query through: the same type as on SQLite (db/types.ts). */
  db: Db;
  /** The same drizzle instance, whole: for the migrator and the database's own tools. */
  drizzle: PostgresJsDatabase<typeof schema>;
  /** The driver's pool, for what drizzle does not say (advisory locks, LISTEN/NOTIFY). */
  client: postgres.Sql;
  /** Waits for running queries, then closes every connection (at most `timeoutSeconds`). */
  close(timeoutSeconds?: number): Promise<void>;
}

export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number;
}

/** Opens a pool on `url`; connections are made as queries need them. */
export function openPostgres(url: string, { max = 10 }: PostgresOptions = {}): PostgresHandle {
  const client = postgres(url, {
    max,
    // "already exists, skipping" and the like: nothing an operator needs on every start.
    onnotice: () => {},
    connect_timeout: 10,
    // Named in pg_stat_activity, beside whatever else uses the database.
    connection: { application_name: "cam-guide" },
    // Closed when idle for a minute, so a quiet site holds few connections.
    idle_timeout: 60,
  });
  const orm = drizzle({ client, schema });
  // The builders are SQLite-typed; the row types are the same (db/columns.ts, db/types.ts).
  const db = orm as unknown as Db;
  registerTransactionRunner(db, (work) => orm.transaction((tx) => work(tx as unknown as Db)));
  const handle: PostgresHandle = {
    dialect: "postgresql",
    db,
    drizzle: orm,
    client,
    close: (timeoutSeconds = 5) => client.end({ timeout: timeoutSeconds }),
  };
  registerJobRunner(db, (job, work) => holdingLock(handle, ADVISORY_LOCKS[job], false, work));
  return handle;
}

/**
 * Keys of the advisory locks cam-guide takes (pg_advisory_lock's 64-bit key space is shared by
 * everything in the database, so each is a fixed random number rather than a small one).
 */
const ADVISORY_LOCKS = {
  /** Migrations and seeding at start: one instance at a time, the others wait. */
  schema: 7_305_218_554_107_311n,
  // Each job on a timer: one instance at a time, the others skip their turn (db/jobs.ts).
  "link-checks": 7_305_218_554_107_312n,
  "analytics-roll-up": 7_305_218_554_107_313n,
  "result-retention": 7_305_218_554_107_314n,
} as const satisfies Record<JobName | "schema", bigint>;

/**
 * Runs `work` while this process holds the advisory lock `key`, on one reserved connection,
 * released after. `wait`: for as long as another session holds it; else null at once, without
 * running work, when one does.
 */
async function holdingLock<T>(
  handle: PostgresHandle,
  key: bigint,
  wait: boolean,
  work: () => Promise<T>,
): Promise<T | null> {
  const session = await handle.client.reserve();
  const id = key.toString();
  try {
    if (wait) await session`select pg_advisory_lock(${id}::bigint)`;
    else {
      const [row] = await session<{ taken: boolean }[]>`select pg_try_advisory_lock(${id}::bigint) as taken`;
      if (!row?.taken) return null;
    }
    try {
      return await work();
    } finally {
      await session`select pg_advisory_unlock(${id}::bigint)`;
    }
  } finally {
    session.release();
  }
}

/**
 * Applies every committed migration in drizzle-pg/ (embedded in the executable), then runs
 * `after` (the seed, the data upgrades, the first admin), all under the schema lock: instances
 * starting together do it once, one after the other, the others waiting.
 */
export async function applyPostgresMigrations(handle: PostgresHandle, after?: () => Promise<unknown>): Promise<void> {
  await holdingLock(handle, ADVISORY_LOCKS.schema, true, async () => {
    await migrate(handle.drizzle, { migrationsFolder: resourcePath("drizzle-pg") });
    await after?.();
  });
}

/** DATABASE_URL as it may be shown: the host, port and database, never the user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}
