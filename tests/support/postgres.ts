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

export type TestPostgres = PostgresHandle & { url: string };

/**
 * A fresh database with the real migrations, open: copied from a template this process migrated
 * once (copying is much faster than migrating), and filled by `fill` the first time a template
 * of that `kind` is made (the seed, say). close() closes it; it is dropped in the background
 * (every drop is awaited after the test file).
 */
export async function migratedDatabase(
  kind = "migrated",
  fill?: (handle: PostgresHandle) => Promise<unknown>,
): Promise<TestPostgres> {
  const from = await template(kind, fill);
  const name = await takeCopy(from);
  const url = testCluster().url(name);
  const handle = openPostgres(url, { max: 4 });
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      open.delete(close);
      await handle.close();
      const drop = dropDatabase(name).finally(() => dropping.delete(drop));
      dropping.add(drop);
    })();
    return closed;
  };
  open.add(close);
  return { ...handle, url, close };
}

/** Closes and drops every test database still open. */
export async function closeTestDatabases(): Promise<void> {
  await Promise.all([...open].map((close) => close()));
  await Promise.all([...dropping]);
}
