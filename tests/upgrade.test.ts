// An upgrade and its rollback as docs/upgrade.md tells an owner to do them: a site made by an
// executable built from an earlier commit (a database migration or more behind this one),
// the executable replaced by this one (the start backs up, then migrates), then the old
// executable put back with the backup taken before the migration restored.
import { Database } from "bun:sqlite";
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBuilt, type Running, SERVER_ADMIN_PASSWORD, startServer, stopServer } from "./support/binary.ts";
import { earlierCommitAvailable, earlierExecutable } from "./support/earlier-build.ts";
import { PORT_TAKEN, testPort } from "./support/ports.ts";
import { scratchDir } from "./support/scratch.ts";

// A shallow clone cannot build the earlier release (tests/support/earlier-build.ts says so when it skips).
const withHistory = test.skipIf(!earlierCommitAvailable());

setDefaultTimeout(180_000);

const running: Running[] = [];
afterAll(async () => {
  for (const server of running) await stopServer(server);
});

async function start(executable: string, dataDir: string, backupDir: string): Promise<Running> {
  const server = await startServer(dataDir, { BACKUP_DIR: backupDir }, { command: [executable] });
  running.push(server);
  return server;
}

/** Everything the server printed (it has stopped). */
async function output(server: Running): Promise<string> {
  return `${await new Response(server.proc.stdout).text()}${await new Response(server.proc.stderr).text()}`;
}

async function signIn(url: string): Promise<(path: string, body: unknown) => Promise<Response>> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ username: "admin", password: SERVER_ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  return (path, body) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url, cookie },
      body: JSON.stringify(body),
    });
}

const post = (slug: string, title: string) => ({
  title,
  slug,
  content: `<p>${title}, written for the upgrade test.</p>`,
  excerpt: "",
  category: null,
  coverImage: null,
  published: true,
  metaDescription: "",
  metaKeywords: "",
});

function migrationsApplied(dataDir: string): number {
  const sqlite = new Database(join(dataDir, "app.db"), { readonly: true });
  try {
    return (sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
}

/** The blog's list as a visitor gets it. */
const blog = async (url: string) => (await fetch(`${url}/blog`)).text();

withHistory(
  "an earlier build's site is upgraded (backed up first, then migrated) and rolled back with that backup",
  async () => {
    ensureBuilt();
    const earlier = earlierExecutable();
    const dataDir = join(scratchDir("upgrade"), "data");
    const backupDir = join(scratchDir("upgrade-backups"), "backups");
    const current = Bun.spawnSync([BINARY, "--version"]).stdout.toString().trim();
    expect(current).toMatch(/^cam-guide 0\.1\.0 \(commit [0-9a-f]{12}( with uncommitted changes)?\)$/);

    // The earlier release: a site with a post of the owner's.
    const old = await start(earlier, dataDir, backupDir);
    const oldAdmin = await signIn(old.url);
    expect(
      (await oldAdmin("/api/admin/blog/post", post("before-the-upgrade", "Written before the upgrade"))).status,
    ).toBe(201);
    expect(await blog(old.url)).toContain("Written before the upgrade");
    await stopServer(old);
    const migrated = migrationsApplied(dataDir);

    // This release in its place: the backup first, then the migration; the post is still there.
    const upgraded = await start(BINARY, dataDir, backupDir);
    // However many migrations this release has added since the earlier commit.
    const shipped = (
      (await Bun.file(join(import.meta.dir, "..", "drizzle", "meta", "_journal.json")).json()) as {
        entries: unknown[];
      }
    ).entries.length;
    expect(shipped).toBeGreaterThan(migrated);
    expect(migrationsApplied(dataDir)).toBe(shipped);
    const [backup, ...others] = readdirSync(backupDir).filter((name) => !name.startsWith("."));
    expect(others).toEqual([]);
    expect(backup).toMatch(
      new RegExp(
        `^cam-guide-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.pre-migration-${migrated}-to-${shipped}\\.tar$`,
      ),
    );
    expect(await blog(upgraded.url)).toContain("Written before the upgrade");
    const newAdmin = await signIn(upgraded.url);
    expect(
      (await newAdmin("/api/admin/blog/post", post("after-the-upgrade", "Written after the upgrade"))).status,
    ).toBe(201);
    expect(await blog(upgraded.url)).toContain("Written after the upgrade");
    await stopServer(upgraded);
    expect(await output(upgraded)).toContain(`a backup of the site as it was is at ${join(backupDir, backup!)}`);

    // Rolled back: the old executable restores the backup taken before the migration, and serves the old data.
    const restored = Bun.spawnSync([earlier, "restore", join(backupDir, backup!)], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
    });
    expect(restored.stderr.toString()).toBe("");
    expect(restored.exitCode).toBe(0);
    expect(migrationsApplied(dataDir)).toBe(migrated);
    const rolledBack = await start(earlier, dataDir, backupDir);
    const page = await blog(rolledBack.url);
    expect(page).toContain("Written before the upgrade");
    // What was written after the upgrade is not in the backup taken before it.
    expect(page).not.toContain("Written after the upgrade");
    await stopServer(rolledBack);

    // Upgraded again: another backup beside the first; a start with nothing pending takes none.
    for (let i = 0; i < 2; i++) await stopServer(await start(BINARY, dataDir, backupDir));
    expect(readdirSync(backupDir).filter((name) => name.includes(".pre-migration-"))).toHaveLength(2);
  },
);

withHistory(
  "without the backup it takes first, a start of this release stops and leaves the earlier release's database as it was",
  async () => {
    ensureBuilt();
    const earlier = earlierExecutable();
    const dataDir = join(scratchDir("upgrade-refused"), "data");
    const blocker = join(scratchDir("upgrade-refused-backups"), "a-file");
    writeFileSync(blocker, "not a folder");
    await stopServer(await start(earlier, dataDir, join(dataDir, "backups")));
    const migrated = migrationsApplied(dataDir);

    // The port is tried before anything else: taken by another test process, draw again.
    const refuse = () =>
      Bun.spawnSync([BINARY], {
        env: {
          PATH: process.env.PATH ?? "",
          DATA_DIR: dataDir,
          BACKUP_DIR: join(blocker, "backups"),
          HOST: "127.0.0.1",
          PORT: String(testPort()),
        },
        timeout: 30_000,
      });
    let refused = refuse();
    for (let attempt = 1; attempt < 5 && PORT_TAKEN.test(refused.stderr.toString()); attempt++) refused = refuse();
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.toString()).toMatch(
      /^This release changes the database, and the backup it takes first could not be written: Cannot create the backup folder.* Nothing was changed;/,
    );
    expect(migrationsApplied(dataDir)).toBe(migrated);
    // The earlier release still runs the site.
    await stopServer(await start(earlier, dataDir, join(dataDir, "backups")));
  },
);
