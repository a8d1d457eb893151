// A site on disk made once by the executable (a first start, then SIGTERM: migrated, seeded,
// the admin created with SERVER_ADMIN_PASSWORD, the session secret written, the database
// checkpointed and closed), and copied whole into a DATA_DIR of its own for each test that
// starts a server. No test sees another's data, and none pays for a first start.
import { afterAll } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  ensureBuilt,
  type Running,
  SERVER_ADMIN_PASSWORD,
  type StartOptions,
  startServer,
  stopServer,
} from "./binary.ts";
import { scratchDir } from "./scratch.ts";

let template: { dir: string; ready: Promise<void> } | undefined;

async function makeTemplate(dir: string): Promise<void> {
  ensureBuilt();
  const server = await startServer(dir);
  await stopServer(server);
  if (server.proc.exitCode !== 0)
    throw new Error(
      `the template site's server exited with ${server.proc.exitCode}: ${await new Response(server.proc.stderr).text()}`,
    );
}

/**
 * Copies every file and folder with its mode: the server keeps DATA_DIR private (0600 files,
 * 0700 folders) and would otherwise tighten the copy and say so; app.db belongs to the ids the
 * site marker lists, so the two go together.
 */
function copyTree(from: string, to: string): void {
  chmodSync(to, statSync(from).mode & 0o7777);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      mkdirSync(target);
      copyTree(source, target);
    } else {
      copyFileSync(source, target);
      chmodSync(target, statSync(source).mode & 0o7777);
    }
  }
}

/**
 * A fresh DATA_DIR holding a copy of the template site, for a server of the test's own. The
 * template is made on the first call in a test file (the scratch root, and the template in
 * it, are removed after each file). A test that needs another admin password, or a first
 * start itself, starts from an empty scratchDir instead.
 */
export async function siteDataDir(label = "site"): Promise<string> {
  if (template === undefined || !existsSync(template.dir)) {
    const dir = scratchDir("template");
    template = { dir, ready: makeTemplate(dir) };
  }
  await template.ready;
  const dir = scratchDir(label);
  copyTree(template.dir, dir);
  return dir;
}

export interface SiteServer extends Running {
  dataDir: string;
}

interface SiteOptions extends StartOptions {
  /** The server's environment beyond startServer's (DATA_DIR, PORT, HOST, ADMIN_PASSWORD). */
  env?: Record<string, string>;
  /** A DATA_DIR the test prepared itself; default: a fresh copy of the template site. */
  dataDir?: string;
}

async function startSite({ env = {}, dataDir, ...start }: SiteOptions): Promise<SiteServer> {
  const dir = dataDir ?? (await siteDataDir());
  return { ...(await startServer(dir, env, start)), dataDir: dir };
}

/** Runs `use` with a server of its own, on a copy of the template site unless told otherwise, and always stops it. */
export async function withServer<T>(use: (server: SiteServer) => Promise<T>, options: SiteOptions = {}): Promise<T> {
  const server = await startSite(options);
  try {
    return await use(server);
  } finally {
    await stopServer(server);
  }
}

/**
 * One server for a table of cases that only read (or whose every write must be refused, each
 * case checking its own): started by the first case that asks, stopped after the enclosing
 * describe (or file). Call it inside the table's describe.
 */
export function serverForTable(options: SiteOptions = {}): () => Promise<SiteServer> {
  let started: Promise<SiteServer> | undefined;
  afterAll(async () => {
    const server = await started?.catch(() => undefined);
    if (server) await stopServer(server);
  });
  return () => {
    started ??= startSite(options);
    return started;
  };
}

/** Signs the template site's admin in through the real sign-in, from the site's own pages; answers the session cookie. */
export async function signIn(server: Running): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ username: "admin", password: SERVER_ADMIN_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}
