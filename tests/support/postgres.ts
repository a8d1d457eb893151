// A throwaway PostgreSQL for tests: Debian's server, initialised in a temporary folder and
// started on a loopback port with fsync off (it starts in about a second). One cluster serves a
// whole `bun run test` (scripts/test-postgres.ts starts it and passes TEST_POSTGRES_URL down);
// a test file run alone starts its own and stops it when the process exits. Each test gets a
// database of its own, copied from a migrated template, so no row leaks between tests.
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { applyPostgresMigrations, openPostgres, type PostgresHandle } from "#server/db/postgres.ts";
import { testPort } from "./ports.ts";

/** Where Debian puts the server's programs (the newest version installed), else pg_config's answer. */
function binDir(): string {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  const asked = Bun.spawnSync(["pg_config", "--bindir"], { stdout: "pipe", stderr: "ignore" });
  const dir = asked.stdout.toString().trim();
  if (asked.exitCode === 0 && existsSync(join(dir, "initdb"))) return dir;
  throw new Error(
    "PostgreSQL's server is not installed: `apt-get install postgresql` (Debian), which the tests start on their own.",
  );
}

/** initdb refuses to run as root: then the cluster belongs to the postgres user, and its commands run as it. */
const asRoot = process.getuid?.() === 0;

function run(command: string[], what: string): void {
  const argv = asRoot ? ["runuser", "-u", "postgres", "--", ...command] : command;
  const result = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) {
    throw new Error(`${what} failed (${result.exitCode}): ${result.stderr.toString()}${result.stdout.toString()}`);
  }
}

export interface TestCluster {
  /** The superuser's address of `database` on this cluster. */
  url(database?: string): string;
  stop(): void;
  /** Stops the server as an operator would (pg_ctl stop, fast), keeping its data; resume() starts it again. */
  halt?(): void;
  resume?(): void;
}

/** Initialises and starts a cluster in a fresh temporary folder; stop() removes it. */
export function startCluster(): TestCluster {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "cam-guide-postgres-"));
  if (asRoot) chownSync(dir, Number(idOf("-u")), Number(idOf("-g")));
  chmodSync(dir, 0o700);
  const data = join(dir, "data");
  run([join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"], "initdb");
  for (let attempt = 1; ; attempt++) {
    const port = testPort();
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      // A throwaway cluster: nothing needs to survive a crash of the machine.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=300",
    ].join(" ");
    const start = () =>
      run(
        [join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "log"), "-w", "-t", "60", "-o", options, "start"],
        "pg_ctl start",
      );
    try {
      start();
    } catch (error) {
      const log = existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8") : "";
      if (attempt < 5 && /could not bind|already in use/i.test(log)) continue;
      throw error;
    }
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      try {
        run([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], "pg_ctl stop");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    return {
      url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
      stop,
      halt: () => run([join(bin, "pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"], "pg_ctl stop"),
      resume: start,
    };
  }
}

function idOf(flag: "-u" | "-g"): string {
  return Bun.spawnSync(["id", flag, "postgres"], { stdout: "pipe" }).stdout.toString().trim();
}

let cluster: TestCluster | undefined;

/** The cluster this process's tests use: the one TEST_POSTGRES_URL names, else one started now. */
function testCluster(): TestCluster {
  if (cluster) return cluster;
  const shared = process.env.TEST_POSTGRES_URL;
  if (shared) {
    const base = new URL(shared);
    cluster = {
      url: (database = "postgres") => Object.assign(new URL(base), { pathname: `/${database}` }).toString(),
      stop() {},
    };
  } else {
    const own = startCluster();
    process.once("exit", () => own.stop());
    cluster = own;
  }
  return cluster;
}

let count = 0;

/** A database name no other test process picks. */
function freshName(label: string): string {
  return `${label}_${process.pid}_${++count}_${Math.random().toString(36).slice(2, 8)}`;
}

async function admin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(testCluster().url(), { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** An empty database on the test cluster (no tables), dropped by the returned function. */
export async function emptyDatabase(label = "t"): Promise<{ url: string; drop(): Promise<void> }> {
  const name = freshName(label);
  await admin((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  return { url: testCluster().url(name), drop: () => dropDatabase(name) };
}

async function dropDatabase(name: string): Promise<void> {
  await admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Templates this process made, by what they hold: migrated once, then copied for every test. */
const templates = new Map<string, Promise<string>>();

function template(kind: string, fill?: (handle: PostgresHandle) => Promise<unknown>): Promise<string> {
  let made = templates.get(kind);
  if (!made) {
    made = (async () => {
      const empty = await emptyDatabase(`template_${kind}`);
      const handle = openPostgres(empty.url, { max: 2 });
      try {
        await applyPostgresMigrations(handle);
        await fill?.(handle);
      } finally {
        await handle.close();
      }
      return new URL(empty.url).pathname.slice(1);
    })();
    templates.set(kind, made);
  }
  return made;
}

/** Test databases still open, closed and dropped after each test file (tests/setup/scratch.ts). */
const open = new Set<() => Promise<void>>();

/**
 * Copies of each template made ahead, while the tests before run: a copy takes a fifth of a
 * second of waiting on the cluster, which the tests of a file would otherwise spend one after
 * the other. Never shared: each is taken by one test.
 */
const spares = new Map<string, Promise<string>[]>();
const SPARES = 2;
/** Drops under way, awaited after each file. */
const dropping = new Set<Promise<void>>();

function copyOf(from: string): Promise<string> {
  const name = freshName("t");
  return admin((sql) => sql.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${from}" STRATEGY = FILE_COPY`)).then(
    () => name,
  );
}

async function takeCopy(from: string): Promise<string> {
  const ready = spares.get(from) ?? [];
  spares.set(from, ready);
  while (ready.length < SPARES + 1) ready.push(copyOf(from));
  return ready.shift()!;
}

export type TestPostgres = PostgresHandle & {
  url: string;
  /**
   * The test is done with it: closed and dropped, or, for a database opened with `reuse`,
   * brought back to its template's rows and kept for the next test (dropped instead when that
   * cannot be done exactly). close() always closes and drops.
   */
  release(): Promise<void>;
};

/**
 * Databases a test finished with, brought back to their template's rows and kept open, by
 * template: the next test that asks for one (`reuse`) takes it as it is. A new database costs
 * its copy and, above all, new connections (a PostgreSQL backend takes 30 to 100 ms to start on
 * the test machine, and a test's app opens up to four): the API scenarios, hundreds of short
 * tests, spent four fifths of their time there.
 */
const kept = new Map<string, { database: TestPostgres; drop: () => Promise<void> }[]>();

/** What brings a copy of a template back to its rows, and the shape it must still have, made once per template. */
interface Reset {
  script: string;
  schema: string;
}
const resets = new Map<string, Promise<Reset>>();

/** The database's tables, by name, without the migrations' own (which are in a schema of theirs). */
export async function publicTables(sql: postgres.Sql): Promise<string[]> {
  return (
    await sql<{ name: string }[]>`
      select tablename as name from pg_tables where schemaname = 'public' order by tablename`
  ).map((r) => r.name);
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Everything a test could change besides rows, as one digest: tables and columns, indexes,
 * constraints, triggers, sequences and functions. A database whose digest differs from its
 * template's is dropped, not reused.
 */
async function schemaDigest(sql: postgres.Sql): Promise<string> {
  const [row] = await sql<{ digest: string }[]>`
    select md5(concat_ws('|',
      (select string_agg(concat_ws(':', table_name, column_name, data_type, is_nullable, column_default, is_generated), ',' order by table_name, column_name)
        from information_schema.columns where table_schema = 'public'),
      (select string_agg(indexdef, ',' order by indexdef) from pg_indexes where schemaname = 'public'),
      (select string_agg(conname || pg_get_constraintdef(oid), ',' order by conname)
        from pg_constraint where connamespace = 'public'::regnamespace),
      (select string_agg(tgname, ',' order by tgname) from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where c.relnamespace = 'public'::regnamespace),
      (select string_agg(sequencename, ',' order by sequencename) from pg_sequences where schemaname = 'public'),
      (select string_agg(proname, ',' order by proname) from pg_proc where pronamespace = 'public'::regnamespace)
    )) as digest`;
  return row!.digest;
}

/**
 * Every table emptied and refilled with the template's rows, and every sequence set back, without
 * the foreign keys' triggers (so in any order): run in one transaction. Built from a copy as it is
 * first opened, which holds exactly the template's rows.
 */
async function resetOf(sql: postgres.Sql): Promise<Reset> {
  const tables = await publicTables(sql);
  const lines = ["SET LOCAL session_replication_role = replica;"];
  for (const table of tables) lines.push(`DELETE FROM ${quoted(table)};`);
  for (const table of tables) {
    const [read] = await sql.unsafe<{ rows: string }[]>(
      `SELECT coalesce(json_agg(t), '[]')::text AS rows FROM ${quoted(table)} t`,
    );
    const rows = read?.rows ?? "[]";
    if (rows === "[]") continue;
    const columns = (
      await sql<{ name: string }[]>`
        select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
        order by ordinal_position`
    )
      .map((c) => quoted(c.name))
      .join(", ");
    let tag = "rows";
    while (rows.includes(`$${tag}$`)) tag += "_";
    lines.push(
      `INSERT INTO ${quoted(table)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${quoted(table)}, $${tag}$${rows}$${tag}$);`,
    );
  }
  const sequences = await sql<{ name: string; last: string | null; start: string }[]>`
    select sequencename as name, last_value::text as last, start_value::text as start
    from pg_sequences where schemaname = 'public'`;
  for (const { name, last, start } of sequences)
    lines.push(`SELECT setval('${quoted(name)}', ${last ?? start}, ${last !== null});`);
  return { script: lines.join("\n"), schema: await schemaDigest(sql) };
}

/**
 * A fresh database with the real migrations, open: copied from a template this process migrated
 * once (copying is much faster than migrating), and filled by `fill` the first time a template
 * of that `kind` is made (the seed, say). close() closes it; it is dropped in the background
 * (every drop is awaited after the test file).
 *
 * With `reuse`, a database another test of this process released may be given instead, holding
 * the template's rows again (see `kept`). For tests that change rows, not the server's settings:
 * the API scenarios.
 */
export async function migratedDatabase(
  kind = "migrated",
  fill?: (handle: PostgresHandle) => Promise<unknown>,
  { reuse = false }: { reuse?: boolean } = {},
): Promise<TestPostgres> {
  const from = await template(kind, fill);
  const again = reuse ? kept.get(from)?.pop() : undefined;
  if (again) {
    open.add(again.drop);
    return again.database;
  }
  const name = await takeCopy(from);
  const url = testCluster().url(name);
  const handle = openPostgres(url, { max: 4 });
  let reset: Promise<Reset> | undefined;
  if (reuse) {
    reset = resets.get(from);
    if (!reset) {
      reset = resetOf(handle.client);
      resets.set(from, reset);
    }
    await reset;
  }
  let closed: Promise<void> | undefined;
  const drop = () => {
    closed ??= (async () => {
      open.delete(drop);
      await handle.close();
      const dropped = dropDatabase(name).finally(() => dropping.delete(dropped));
      dropping.add(dropped);
    })();
    return closed;
  };
  const release = async () => {
    if (!reset || closed) return drop();
    try {
      const { script, schema } = await reset;
      if ((await schemaDigest(handle.client)) !== schema) return drop();
      await handle.client.begin((sql) => sql.unsafe(script));
    } catch {
      return drop();
    }
    open.delete(drop);
    const list = kept.get(from) ?? [];
    kept.set(from, list);
    list.push({ database, drop });
  };
  const database: TestPostgres = { ...handle, url, close: drop, release };
  open.add(drop);
  return database;
}

/** Closes and drops every test database still open, and those kept for reuse. */
export async function closeTestDatabases(): Promise<void> {
  await Promise.all([...open].map((close) => close()));
  const idle = [...kept.values()].flat();
  kept.clear();
  await Promise.all(idle.map(({ drop }) => drop()));
  await Promise.all([...dropping]);
}
