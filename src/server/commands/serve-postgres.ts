// `cam-guide serve` with DATABASE_URL: the site on PostgreSQL. What differs from SQLite
// (serve.ts): the database is not a file in DATA_DIR, so there is no DATA_DIR lock, no file
// watch and no checkpoints, and cam-guide takes no backups of it (docs/deploy.md). DATA_DIR
// still holds the uploads.

import { join, resolve } from "node:path";
import { makePrivateDir, tightenDataDir } from "#server/data-dir.ts";
import { postgresChanges } from "#server/db/changes.ts";
import { describeDatabaseUrl } from "#server/db/postgres.ts";
import { describeSeed, seedDatabase } from "#server/db/seed.ts";
import type { Config } from "#server/env.ts";
import { type EnsureAdminResult, ensureAdmin } from "#server/features/auth/bootstrap.ts";
import { joinInstances, type Membership, SecretMismatch } from "#server/features/auth/instances.ts";
import { bucketStore, keepUploadsIn } from "#server/features/media/store.ts";
import { StorageHealth } from "#server/lib/storage-health.ts";
import { consoleLogger as logger } from "#server/logger.ts";
import { fail, openPostgresSite, orFail } from "./common.ts";
import { announceAdmin, checkPort, runSite, tidyUploads } from "./serve.ts";

export async function servePostgres(config: Config) {
  const dir = resolve(config.dataDir);
  orFail(() => makePrivateDir(dir));
  checkPort(config);
  const { fixed, problems } = tightenDataDir(dir);
  if (fixed > 0) logger.warn(`made ${fixed} files and folders in DATA_DIR private (0600 files, 0700 folders)`);
  for (const problem of problems) logger.warn(problem);
  logger.info(`database: ${describeDatabaseUrl(config.databaseUrl!)}`);
  if (config.backupCron || config.backupKeep !== null)
    logger.warn(
      "BACKUP_CRON and BACKUP_KEEP are ignored: cam-guide backs up a SQLite database only; back PostgreSQL up with pg_dump or your provider's backups (docs/deploy.md)",
    );
  // The session secret is JWT_SECRET (env.ts requires it with DATABASE_URL): one for every instance.
  const secret = config.jwtSecret!;
  let admin: EnsureAdminResult | undefined;
  let membership: Membership | undefined;
  const database = await openPostgresSite(config, async (site) => {
    // First, under the start's lock: an instance with another secret changes nothing.
    membership = await joinInstances(site.db, secret, logger);
    const report = await seedDatabase(site);
    if (Object.values(report).some((n) => n > 0)) logger.info(describeSeed(report));
    admin = await ensureAdmin(site.db, config.adminUsername, config.adminPassword);
  }).catch((error) => {
    if (error instanceof SecretMismatch) fail(error.message);
    throw error;
  });
  announceAdmin(admin);
  // S3_BUCKET: uploads are kept in the bucket, and this instance's folder is its cache.
  if (config.uploadBucket) keepUploadsIn(join(dir, "uploads"), bucketStore(config.uploadBucket));
  await tidyUploads(dir, database);
  // Only the disk under the uploads is watched: the database is not a file here.
  const storage = new StorageHealth({ dir, databaseFile: null, logger });
  await storage.settled();
  await runSite(config, { database, secret, dir, storage, changes: postgresChanges(database) }, async () => {
    await membership?.leave();
    await database.close();
    await storage.stop();
  });
}
