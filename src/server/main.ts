import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { createApp } from "./app.ts";
import { backup, restore } from "./backup.ts";
import { checkDatabasePresent, MissingDatabaseError, markSite } from "./data-dir.ts";
import { applyMigrations, type DatabaseHandle, openDatabase } from "./db/client.ts";
import { describeSeed, seedDatabase } from "./db/seed.ts";
import { type Config, ConfigError, loadConfig } from "./env.ts";
import { ensureAdmin, loadJwtSecret, resetAdminPassword } from "./features/auth/bootstrap.ts";
import { removeUnfinishedUploads } from "./features/uploads/service.ts";
import { freeBytes, RESERVE_BYTES, StorageHealth, storageFault } from "./lib/storage-health.ts";
import { consoleLogger as logger } from "./logger.ts";
import { loadAssets } from "./ssr/assets.ts";

const HELP = `cam-guide: the self-hosted guide, quiz and free course for new webcam models.

Usage: cam-guide [command]

Commands:
  serve                 Start the web server (the default).
  seed                  Load the bundled content into the database (safe to run twice).
  admin reset-password  Set a new admin password (ADMIN_PASSWORD, or a generated one that is printed).
  backup <file>         Write a consistent copy of the database and uploads to <file> (safe while serving).
  restore <file>        Put a backup back into DATA_DIR (stop the server first; the old database is kept).
  new-database          Begin again with an empty site where a site's database (app.db) went missing;
                        every other command refuses to run on such a DATA_DIR.
  healthcheck           Exit 0 if the server on PORT answers /healthz (for Docker's HEALTHCHECK).
  --help                Show this help.

Configuration (environment variables):
  PORT            Port to listen on (default 3000)
  HOST            Address to listen on (default 0.0.0.0)
  DATA_DIR        Where the database, secrets and uploads live (default ./data)
  PUBLIC_URL      The site's public address, e.g. https://example.com (used in links and feeds)
  JWT_SECRET      Session signing secret, 32+ characters (default: generated once into DATA_DIR)
  ADMIN_USERNAME  The admin's user name, used on first start (default admin)
  ADMIN_PASSWORD  The admin's password on first start, 12+ characters (default: generated and printed once)
`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function openData(config: Config, { startOver = false } = {}): DatabaseHandle {
  const dir = resolve(config.dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    fail(`Cannot create DATA_DIR ${dir}: ${(error as Error).message}`);
  }
  // A site whose database went missing is not silently replaced by an empty one.
  try {
    checkDatabasePresent(dir, { startOver });
  } catch (error) {
    if (error instanceof MissingDatabaseError) fail(error.message);
    throw error;
  }
  const handle = openDatabase(join(dir, "app.db"));
  applyMigrations(handle);
  markSite(dir);
  return handle;
}

async function serve(config: Config) {
  const database = openData(config);
  const report = await seedDatabase(database);
  if (Object.values(report).some((n) => n > 0)) logger.info(describeSeed(report));
  const admin = await ensureAdmin(database.db, config.adminUsername, config.adminPassword);
  if (admin.created && admin.generatedPassword) {
    // Printed once, on the start that created the account; it is stored only as a hash.
    console.log(
      `\n  Admin account created.\n  Username: ${admin.username}\n  Password: ${admin.generatedPassword}\n  Keep it safe: it will not be shown again (reset with \`cam-guide admin reset-password\`).\n`,
    );
  }
  const dataDir = resolve(config.dataDir);
  const secret = loadJwtSecret(dataDir, config.jwtSecret);
  const uploadsDir = join(dataDir, "uploads");
  // Uploads cut short by a crash left only temporary names: never served, removed here.
  const unfinished = removeUnfinishedUploads(uploadsDir);
  if (unfinished > 0) logger.info(`removed ${unfinished} unfinished upload${unfinished === 1 ? "" : "s"}`);
  // Watches the files opened above and the disk under them for as long as the server runs.
  const storage = new StorageHealth({ dir: dataDir, databaseFile: join(dataDir, "app.db"), logger });
  await storage.settled();

  const app = createApp({ database, secret, uploadsDir, storage, config, assets: loadAssets(), logger });
  try {
    app.listen({ port: config.port, hostname: config.host });
  } catch (error) {
    database.close();
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE")
      fail(`Port ${config.port} is already in use on ${config.host}. Stop the other process or set PORT.`);
    if (code === "EACCES")
      fail(`Not allowed to listen on port ${config.port}. Use a port above 1023 or run with the right permissions.`);
    throw error;
  }
  logger.info(`cam-guide listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing in-flight requests`);
    // stop(false) stops accepting connections and resolves once open requests are done.
    await app.server?.stop(false);
    database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

async function healthcheck(config: Config) {
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/healthz`, { signal: AbortSignal.timeout(3000) });
    process.exit(res.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}

/** DATA_DIR once the configuration is read, for the message of a start that fails on the disk. */
let dataDirInUse: string | null = null;

/** A command that failed on the storage (a full disk, a read-only folder): a clear message, not a stack. */
function storageFailure(error: unknown): string | null {
  const fault = storageFault(error);
  if (!fault || !dataDirInUse) return null;
  const { code, message } = error as { code?: string; message?: string };
  const free = freeBytes(dataDirInUse);
  const full = fault === "full" || (free !== null && free < RESERVE_BYTES);
  return (
    `Cannot use the data in ${dataDirInUse}: ${code ?? "error"} (${message ?? error}).\n` +
    (full
      ? `The disk holding it is full (${Math.floor((free ?? 0) / 1024)} KB free). Free some space, then run the command again.`
      : "It cannot be read or written. Check the disk and the folder's permissions, then run the command again.")
  );
}

async function main(argv: string[]) {
  const [command = "serve", sub] = argv;
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  dataDirInUse = resolve(config.dataDir);
  switch (command) {
    case "serve":
      return serve(config);
    case "new-database": {
      const db = join(resolve(config.dataDir), "app.db");
      if (existsSync(db))
        fail(
          `${db} exists: new-database only replaces a missing database. To put a backup in its place, use cam-guide restore <file>.`,
        );
      const database = openData(config, { startOver: true });
      console.log(describeSeed(await seedDatabase(database)));
      database.close();
      console.log(
        `A new, empty database was created at ${db}. Start the server to create the admin account (its password is printed once).`,
      );
      return;
    }
    case "seed": {
      const database = openData(config);
      console.log(describeSeed(await seedDatabase(database)));
      database.close();
      return;
    }
    case "admin": {
      if (sub !== "reset-password") fail(`Unknown admin command "${sub ?? ""}". Try: cam-guide admin reset-password`);
      const database = openData(config);
      const result = await resetAdminPassword(database.db, config.adminUsername, config.adminPassword);
      database.close();
      console.log(
        result.generatedPassword
          ? `New password for ${result.username}: ${result.generatedPassword}\nEvery existing session has been signed out.`
          : `Password for ${result.username} set from ADMIN_PASSWORD. Every existing session has been signed out.`,
      );
      return;
    }
    case "backup":
    case "restore": {
      if (!sub) fail(`Usage: cam-guide ${command} <file>`);
      const dir = resolve(config.dataDir);
      try {
        if (command === "backup") {
          const { files } = await backup(dir, resolve(sub));
          console.log(`Backup written to ${resolve(sub)} (${files} files: the database, its secret and the uploads).`);
        } else {
          const { files, kept } = await restore(dir, resolve(sub));
          console.log(
            `Restored ${files} files into ${dir}.${kept ? ` The previous database is kept at ${kept}.` : ""}`,
          );
        }
      } catch (error) {
        fail(`${command === "backup" ? "Backup" : "Restore"} failed: ${(error as Error).message}`);
      }
      return;
    }
    case "healthcheck":
      return healthcheck(config);
    default:
      fail(`Unknown command "${command}".\n\n${HELP}`);
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const message = storageFailure(error);
  if (message) fail(message);
  throw error;
}
