import { afterEach } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "#server/app.ts";
import { applyMigrations, openDatabase } from "#server/db/client.ts";
import { Backups } from "#server/features/backups/service.ts";
import { StorageHealth } from "#server/lib/storage-health.ts";
import { memoryLogger } from "#server/logger.ts";
import { loadAssets } from "#server/ssr/assets.ts";
import type { BackupOverview } from "#shared/features/backups/contract.ts";
import { login, SAME_ORIGIN } from "./admin.ts";
import { TEST_SECRET } from "./app.ts";
import { createAdmin, createSettings } from "./factories.ts";
import { scratchDir } from "./scratch.ts";

// Backups copy a database file and run in a child process, so these apps keep their data on disk.

/** The name of the one upload in a site on disk. */
export const UPLOAD = "abcdefghijklmnopqrstuv.png";
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/**
 * The real app on a real SQLite file in its own DATA_DIR (settings, an upload, the session
 * secret and a signed-in admin), with its automatic backups; stopped after each test.
 */
export async function siteOnDisk(options: { cron?: string | null; keep?: number | null; backupDir?: string } = {}) {
  const dataDir = scratchDir("site");
  const uploadsDir = join(dataDir, "uploads");
  mkdirSync(uploadsDir);
  writeFileSync(join(uploadsDir, UPLOAD), "not really a picture");
  writeFileSync(join(dataDir, "jwt-secret"), TEST_SECRET);
  const database = openDatabase(join(dataDir, "app.db"));
  applyMigrations(database);
  await createSettings(database.db);
  await createAdmin(database.db);
  const logger = memoryLogger();
  const backupDir = options.backupDir ?? join(dataDir, "backups");
  const backups = new Backups({
    db: database.db,
    dataDir,
    backupDir,
    env: { cron: options.cron ?? null, keep: options.keep ?? null },
    logger,
  });
  await backups.start();
  const app = createApp({
    database,
    secret: TEST_SECRET,
    uploadsDir,
    storage: new StorageHealth({ dir: dataDir, databaseFile: join(dataDir, "app.db"), logger }),
    config: { publicUrl: null, backupDir },
    assets: loadAssets(),
    logger,
    services: { backups },
  });
  stops.push(async () => {
    await backups.stop();
    database.close();
  });
  const request = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
  const cookie = await login(request);
  /** A request as the signed-in admin from this site. */
  const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", cookie);
    headers.set("origin", SAME_ORIGIN.origin);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    return request(path, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  };
  const overview = async () => (await (await asAdmin("/api/admin/backups")).json()) as BackupOverview;
  return { dataDir, backupDir, database, backups, request, asAdmin, overview, logger };
}
