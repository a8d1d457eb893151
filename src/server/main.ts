// The cam-guide executable: reads the configuration once and runs one command (each in
// src/server/commands/; the site itself is serve.ts). First, before anything reads it:
import "./production-default.ts";
import { resolve } from "node:path";
import { VERSION_LINE } from "./build-info.ts";
import { resetPassword, resetSecondFactor } from "./commands/admin.ts";
import { runAutoBackup, runBackup } from "./commands/backup.ts";
import { fail, refuseOnPostgres } from "./commands/common.ts";
import { healthcheck } from "./commands/healthcheck.ts";
import { newDatabase } from "./commands/new-database.ts";
import { runRestore } from "./commands/restore.ts";
import { seed } from "./commands/seed.ts";
import { serve } from "./commands/serve.ts";
import { type Config, ConfigError, loadConfig } from "./env.ts";
import { freeBytes, RESERVE_BYTES, storageFault } from "./lib/storage-health.ts";

const HELP = `cam-guide: the self-hosted guide, quiz and free course for new webcam models.

Usage: cam-guide [command]

Commands:
  serve                 Start the web server (the default). One server per DATA_DIR.
  seed                  Load the bundled content into the database (safe to run twice, also while serving).
  admin reset-password  Set a new password for the admin, whatever its name (ADMIN_PASSWORD, or a generated
                        one that is printed), and sign out every session. Works while serving.
  admin reset-2fa       Turn two-factor sign-in off for the admin (when the phone and the recovery codes
                        are lost), delete its recovery codes and sign out every session. Works while serving.
  backup <file>         (SQLite only) Write a consistent copy of the database, its secret and the uploads to <file>
                        (safe while serving; <file> must be outside DATA_DIR; written whole or not at all).
  restore <file>        (SQLite only) Put a backup back into DATA_DIR after checking all of it (stop the server first;
                        the old database is kept beside the new one).
  new-database          (SQLite only) Begin again with an empty site where a site's database (app.db) went missing or is
                        not recognised (emptied, cut short, overwritten, damaged, another program's or
                        site's, its write-ahead log app.db-wal lost, written by another program under the
                        server); such a file is kept aside as app.db.unrecognised-<time>, never deleted.
                        Every other command refuses to run on such a DATA_DIR.
  backup-auto <auto|manual> <keep>
                        One run of the automatic backups into BACKUP_DIR, checked, old automatic ones
                        deleted beyond <keep>, recorded in Admin > Backups; it says {"busy":true} while
                        another run goes (the server starts it in a child process).
  healthcheck           Exit 0 if the server on PORT answers /healthz (for Docker's HEALTHCHECK).
  --version             Show the version and the commit the executable was built from.
  --help                Show this help.

Configuration (environment variables):
  PORT            Port to listen on (default 3000)
  HOST            Address to listen on (default 0.0.0.0)
  DATA_DIR        Where the database, secrets and uploads live (default ./data; kept private: 0700, files 0600)
  PUBLIC_URL      The site's public address, e.g. https://example.com (links in feeds, the sitemap
                  and search tags). Unset: the address the admin signs in at, confirmed in Settings
  NODE_ENV        development shows Bun's detailed error pages; anything else runs as production
  JWT_SECRET      Session signing secret, 32+ characters (default: generated once into DATA_DIR)
  DATABASE_URL    postgres://user:password@host:5432/database runs the site on PostgreSQL (JWT_SECRET
                  required; back the database up with pg_dump). Unset: SQLite in DATA_DIR, the default
  TRUSTED_PROXIES Your reverse proxies' addresses or CIDR ranges, comma-separated, e.g. 127.0.0.1,::1
                  (their X-Forwarded-For/-Proto are believed; default: none, the headers are ignored)
  ADMIN_USERNAME  The admin's user name, used on first start (default admin)
  ADMIN_PASSWORD  The admin's password on first start, 12+ characters (default: generated and printed once)
  WRITE_LIMIT     Anonymous writes per client, e.g. 60/minute (the default), 10/30s, 500/hour; "off" or 0 for none
  LINK_CHECK_INTERVAL  Hours between checks of the affiliate links' destinations (default 168, weekly);
                  "off" or 0: only when the admin presses Check now
  ANALYTICS       First-party counting without cookies or stored addresses: on (the default) or off
  BACKUP_CRON     When automatic backups run, a cron schedule of 5 fields (minute hour day month weekday)
                  or 6 with seconds first, in the server's time zone, e.g. "30 3 * * *" every night at 03:30;
                  "off" for none. Unset: off, unless the admin sets a schedule in Settings
  BACKUP_KEEP     Automatic backups kept, 1 to 365 (default 7, or the admin's count in Settings); older
                  automatic ones are deleted, backups made with "Back up now" are always kept
  BACKUP_DIR      Where those backups are written (default DATA_DIR/backups, which no backup copies);
                  point it at another disk so a backup survives losing the disk DATA_DIR is on; a start that
                  upgrades the database first writes a backup there (see docs/upgrade.md)
`;

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
  // Everything cam-guide creates is private to its user, whatever umask it was started with.
  process.umask(0o077);
  const [command = "serve", sub, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return;
  }
  if (command === "--version" || command === "-v" || command === "version") {
    console.log(VERSION_LINE);
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
    case "new-database":
      refuseOnPostgres(config, command, "Its database is made and migrated by the server's first start.");
      return newDatabase(config);
    case "seed":
      return seed(config);
    case "admin":
      if (sub === "reset-2fa") return resetSecondFactor(config);
      if (sub !== "reset-password")
        fail(`Unknown admin command "${sub ?? ""}". Try: cam-guide admin reset-password or cam-guide admin reset-2fa`);
      return resetPassword(config);
    case "backup":
    case "restore":
      // A name like --help is a mistyped option, not a file to write or read.
      if (!sub || rest.length > 0 || sub.startsWith("-"))
        fail(
          `Usage: cam-guide ${command} <file>${sub?.startsWith("-") ? ` (for a file named ${sub}, write ./${sub})` : ""}`,
        );
      refuseOnPostgres(
        config,
        command,
        command === "backup"
          ? "Back it up with pg_dump or your provider's backups (docs/deploy.md)."
          : "Restore it with pg_restore or your provider's tools (docs/deploy.md).",
      );
      return command === "backup" ? runBackup(config, sub) : runRestore(config, sub);
    case "backup-auto":
      refuseOnPostgres(config, command, "Back it up with pg_dump or your provider's backups (docs/deploy.md).");
      return runAutoBackup(config, sub, rest[0]);
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
