// Configuration is read here once, validated, and passed down. Nothing else reads process.env.

import { resolve } from "node:path";
import { Cron } from "croner";
import { MAX_KEEP } from "#shared/features/backups/contract.ts";
import { DEFAULT_LINK_CHECK_HOURS } from "#shared/features/settings/link-checks.ts";
import { CHECKPOINT_EVERY_MS } from "./db/checkpoints.ts";
import { dialectOf } from "./db/dialect.ts";
import type { BucketConfig } from "./features/media/store.ts";
import { parseRange } from "./lib/client.ts";
import { DAILY_LIMITS, type DailyLimits } from "./lib/daily-quota.ts";
import { IDLE_TIMEOUT_SECONDS } from "./lib/time-limits.ts";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string | null;
  jwtSecret: string | null;
  /** DATABASE_URL: a postgres:// address runs the site on PostgreSQL; null (unset): SQLite in DATA_DIR. */
  databaseUrl: string | null;
  /** S3_BUCKET and its S3_* companions: uploads kept in an S3-compatible bucket; null: in DATA_DIR/uploads. */
  uploadBucket: BucketConfig | null;
  adminUsername: string;
  adminPassword: string | null;
  /**
   * NODE_ENV=development: Bun's detailed error pages. Anything else (unset included) is
   * production: errors answer with the site's own short messages.
   */
  development: boolean;
  /** Addresses of reverse proxies whose X-Forwarded-* headers are believed (TRUSTED_PROXIES). */
  trustedProxies: string[];
  /** Anonymous writes each client may make (WRITE_LIMIT); null when the operator turned the limit off. */
  writeLimit: WriteLimit | null;
  /** Hours between scheduled checks of the links' destinations (LINK_CHECK_INTERVAL); null: no scheduled check. */
  linkCheckInterval: number | null;
  /** Whether LINK_CHECK_INTERVAL is set: then it wins over the schedule chosen in Settings. */
  linkCheckIntervalSet: boolean;
  /** First-party counting (ANALYTICS); false when the operator set ANALYTICS=off. */
  analytics: boolean;
  /** BACKUP_CRON: when automatic backups run; "off" stops them; null: unset, the Settings' schedule applies. */
  backupCron: string | null;
  /** BACKUP_KEEP: automatic backups kept; null: unset, the Settings' count (or the default) applies. */
  backupKeep: number | null;
  /** BACKUP_DIR, resolved: where automatic and "back up now" backups are written (default DATA_DIR/backups). */
  backupDir: string;
  /**
   * CAM_GUIDE_BENCH=1, for the benchmark scripts only: mounts /__bench/ceiling and lifts the
   * daily limits on anonymous writes (the scripts save results as fast as the server can).
   */
  benchEndpoints: boolean;
  /**
   * CAM_GUIDE_TEST_LOOPBACK_LINK_PORT, for cam-guide's own tests only: the one port on 127.0.0.1
   * the link checker may reach, through one reserved test name (features/links/network.ts); null: none.
   */
  testLoopbackLinkPort: number | null;
  /**
   * The daily limits on rows anonymous requests add: DAILY_LIMITS, lowered (never raised) by
   * CAM_GUIDE_TEST_DAILY_LIMITS, which exists for the adversarial tests only (a flood of a
   * few hundred requests then reaches the limits for everyone); not an operator setting.
   * WRITE_LIMIT=off lifts the per-network ones (clients are not told apart by address).
   */
  dailyLimits: DailyLimits;
  /**
   * Bun's idle timeout in seconds, which every other time limit follows (lib/time-limits.ts):
   * 30. CAM_GUIDE_TEST_IDLE_TIMEOUT (8 to 30) shortens it for the adversarial tests only.
   */
  idleTimeout: number;
  /**
   * How often the server folds its write-ahead log into app.db while the log grows
   * (db/checkpoints.ts): 30 s. CAM_GUIDE_TEST_CHECKPOINT_SECONDS (1 to 30) shortens it for the
   * adversarial tests only, which watch checkpoints happen without waiting half a minute.
   */
  checkpointEveryMs: number;
}

/** At most `count` writes per `windowSeconds`, refilled evenly (a burst of `count` is allowed). */
export interface WriteLimit {
  count: number;
  windowSeconds: number;
}

/** WRITE_LIMIT unset: 60/minute (a visitor makes two or three writes; a shared office or mobile network more). */
export const DEFAULT_WRITE_LIMIT: WriteLimit = { count: 60, windowSeconds: 60 };

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hour: 3600,
  hours: 3600,
};

/**
 * CAM_GUIDE_TEST_DAILY_LIMITS ("visitors=50,results=20", names from DailyLimits): the tests'
 * smaller daily limits, each a whole number from 1 to its default. A problem's text, or the limits.
 */
function parseTestDailyLimits(raw: string): DailyLimits | string {
  const limits = { ...DAILY_LIMITS };
  for (const entry of raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name = "", text = ""] = entry.split("=").map((part) => part.trim());
    const most = Object.hasOwn(DAILY_LIMITS, name) ? DAILY_LIMITS[name as keyof DailyLimits] : null;
    const count = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
    if (most === null || !(count >= 1 && count <= most))
      return `CAM_GUIDE_TEST_DAILY_LIMITS (for tests only) takes name=number pairs that lower the daily limits: ${Object.keys(DAILY_LIMITS).join(", ")}, each from 1 to its default (got "${entry}").`;
    limits[name as keyof DailyLimits] = count;
  }
  return limits;
}

/** The daily limits with the per-network ones, or all of them, lifted. */
function liftedLimits(limits: DailyLimits, { perNetwork, all }: { perNetwork: boolean; all: boolean }): DailyLimits {
  const none = Number.POSITIVE_INFINITY;
  const lifted =
    perNetwork || all
      ? {
          ...limits,
          visitorsPerClient: none,
          resultsPerClient: none,
          newValuesPerClient: none,
          // Networks not told apart have no share to shrink under pressure: only the ceilings stay.
          visitorsFloor: none,
          resultsFloor: none,
          newValuesFloor: none,
        }
      : limits;
  return all ? { ...lifted, visitors: none, results: none, newValues: none } : lifted;
}

/** "60/minute", "10/30s", "500/hour"; "off" or "0" turns the limit off (null). Undefined when invalid. */
function parseWriteLimit(raw: string): WriteLimit | null | undefined {
  const text = raw.trim().toLowerCase();
  if (text === "off" || text === "0") return null;
  const match = /^(\d{1,7})\s*\/\s*(\d{1,5})?\s*([a-z]+)$/.exec(text);
  if (!match) return undefined;
  const count = Number(match[1]);
  const unit = UNIT_SECONDS[match[3]!];
  const windowSeconds = Number(match[2] ?? 1) * (unit ?? 0);
  if (count < 1 || !unit || windowSeconds < 1 || windowSeconds > 86_400) return undefined;
  return { count, windowSeconds };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Null when `cron` is a schedule automatic backups can use: 5 fields (minute hour day month
 * weekday) or 6 with seconds first, or a nickname such as @daily; else why not, one sentence.
 */
export function cronProblem(cron: string): string | null {
  try {
    new Cron(cron, { paused: true, mode: "5-or-6-parts" }).stop();
    return null;
  } catch (error) {
    const reason = (error as Error).message.replace(/^CronPattern: /, "").replace(/\.$/, "");
    return `"${cron}" is not a schedule: ${reason}. Use 5 fields (minute hour day-of-month month weekday), or 6 with seconds first, such as "30 3 * * *" for every night at 03:30`;
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const value = (name: string) => {
    const raw = env[name];
    return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
  };

  const rawPort = value("PORT") ?? "3000";
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port < 1 || port > 65535) {
    problems.push(`PORT must be a whole number from 1 to 65535 (got "${rawPort}").`);
  }

  const host = value("HOST") ?? "0.0.0.0";
  if (/\s|\//.test(host)) problems.push(`HOST must be a host name or IP address (got "${host}").`);

  const dataDir = value("DATA_DIR") ?? "./data";

  let publicUrl: string | null = null;
  const rawPublicUrl = value("PUBLIC_URL");
  if (rawPublicUrl !== undefined) {
    try {
      const url = new URL(rawPublicUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("protocol");
      publicUrl = url.origin + url.pathname.replace(/\/+$/, "");
    } catch {
      problems.push(`PUBLIC_URL must be an http(s) URL such as https://example.com (got "${rawPublicUrl}").`);
    }
  }

  const jwtSecret = value("JWT_SECRET") ?? null;
  if (jwtSecret !== null && jwtSecret.length < 32) {
    problems.push(
      value("DATABASE_URL")
        ? "JWT_SECRET must be at least 32 characters long (openssl rand -base64 48 makes one)."
        : "JWT_SECRET must be at least 32 characters long (or unset, to generate one in DATA_DIR).",
    );
  }

  const databaseUrl = value("DATABASE_URL") ?? null;
  if (databaseUrl !== null) {
    if (dialectOf(databaseUrl) !== "postgresql")
      // Only the scheme is echoed: the address may hold a password.
      problems.push(
        `DATABASE_URL must be a PostgreSQL address such as postgres://user:password@host:5432/database (got one starting "${databaseUrl.split(":")[0]}:"); leave it unset to keep the database in DATA_DIR (SQLite).`,
      );
    else if (jwtSecret === null)
      problems.push(
        "JWT_SECRET is required with DATABASE_URL: every instance of the site must sign sessions with the same secret (32+ characters; openssl rand -base64 48 makes one).",
      );
  }

  const adminUsername = value("ADMIN_USERNAME") ?? "admin";
  if (!/^[A-Za-z0-9._-]{3,64}$/.test(adminUsername)) {
    problems.push("ADMIN_USERNAME must be 3 to 64 letters, digits, dots, dashes or underscores.");
  }

  const adminPassword = value("ADMIN_PASSWORD") ?? null;
  if (adminPassword !== null && adminPassword.length < 12) {
    // The value itself is never echoed.
    problems.push("ADMIN_PASSWORD must be at least 12 characters long (or unset, to generate one).");
  }

  // Addresses and CIDR ranges, comma-separated; unset or empty: no proxy is trusted.
  const rawProxies = value("TRUSTED_PROXIES") ?? "";
  const trustedProxies = rawProxies
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const badProxies = trustedProxies.filter((entry) => !parseRange(entry));
  if (badProxies.length > 0) {
    problems.push(
      `TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges, such as 127.0.0.1,::1 or 10.0.0.0/8 (not valid: ${badProxies.map((e) => `"${e}"`).join(", ")}).`,
    );
  }

  const rawWriteLimit = value("WRITE_LIMIT");
  const writeLimit = rawWriteLimit === undefined ? DEFAULT_WRITE_LIMIT : parseWriteLimit(rawWriteLimit);
  if (writeLimit === undefined) {
    problems.push(
      `WRITE_LIMIT must be a number of writes per time, such as 60/minute, 10/30s or 500/hour (at most a day), or "off" (got "${rawWriteLimit}").`,
    );
  }

  // Hours; weekly unless set; "off" or 0: only the admin's "Check now".
  const rawLinkCheck = value("LINK_CHECK_INTERVAL");
  let linkCheckInterval: number | null = DEFAULT_LINK_CHECK_HOURS;
  if (rawLinkCheck !== undefined) {
    const hours = Number(rawLinkCheck);
    if (rawLinkCheck.toLowerCase() === "off" || (/^\d+(\.\d+)?$/.test(rawLinkCheck) && hours === 0))
      linkCheckInterval = null;
    else if (/^\d+(\.\d+)?$/.test(rawLinkCheck) && hours >= 1 && hours <= 8760) linkCheckInterval = hours;
    else
      problems.push(
        `LINK_CHECK_INTERVAL must be a number of hours from 1 to 8760 (a year), such as 168 for weekly, or "off" (got "${rawLinkCheck}").`,
      );
  }

  const rawAnalytics = (value("ANALYTICS") ?? "on").toLowerCase();
  if (rawAnalytics !== "on" && rawAnalytics !== "off") {
    problems.push(`ANALYTICS must be "on" or "off" (got "${value("ANALYTICS")}").`);
  }

  // Automatic backups: off unless BACKUP_CRON or the Settings give a schedule.
  const rawBackupCron = value("BACKUP_CRON");
  let backupCron: string | null = null;
  if (rawBackupCron !== undefined) {
    const cron = rawBackupCron.replace(/\s+/g, " ");
    const problem = cron.toLowerCase() === "off" ? null : cronProblem(cron);
    if (problem) problems.push(`BACKUP_CRON must be a cron schedule or "off": ${problem}.`);
    else backupCron = cron.toLowerCase() === "off" ? "off" : cron;
  }
  const rawBackupKeep = value("BACKUP_KEEP");
  let backupKeep: number | null = null;
  if (rawBackupKeep !== undefined) {
    const keep = Number(rawBackupKeep);
    if (/^\d+$/.test(rawBackupKeep) && keep >= 1 && keep <= MAX_KEEP) backupKeep = keep;
    else
      problems.push(
        `BACKUP_KEEP must be a whole number of automatic backups to keep, from 1 to ${MAX_KEEP} (got "${rawBackupKeep}").`,
      );
  }
  // Inside DATA_DIR by default, in a folder no backup copies; never DATA_DIR itself or its uploads.
  const backupDir = resolve(value("BACKUP_DIR") ?? resolve(dataDir, "backups"));
  const data = resolve(dataDir);
  if (
    backupDir === data ||
    backupDir === resolve(data, "uploads") ||
    backupDir.startsWith(`${resolve(data, "uploads")}/`)
  )
    problems.push(
      `BACKUP_DIR must be a folder of its own, not DATA_DIR or its uploads (got "${value("BACKUP_DIR")}"); leave it unset for DATA_DIR/backups, or better, name a folder on another disk.`,
    );
  else if (data.startsWith(`${backupDir}/`))
    problems.push(`BACKUP_DIR must not hold DATA_DIR (got "${value("BACKUP_DIR")}"): backups would copy themselves.`);

  const rawTestPort = value("CAM_GUIDE_TEST_LOOPBACK_LINK_PORT");
  const testLoopbackLinkPort = rawTestPort === undefined ? null : Number(rawTestPort);
  if (
    rawTestPort !== undefined &&
    !(/^\d{1,5}$/.test(rawTestPort) && Number(rawTestPort) >= 1 && Number(rawTestPort) <= 65535)
  )
    problems.push(
      `CAM_GUIDE_TEST_LOOPBACK_LINK_PORT is for cam-guide's own tests only: unset it (got "${rawTestPort}", not a port).`,
    );
  const rawTestLimits = value("CAM_GUIDE_TEST_DAILY_LIMITS");
  const testLimits = rawTestLimits === undefined ? DAILY_LIMITS : parseTestDailyLimits(rawTestLimits);
  if (typeof testLimits === "string") problems.push(testLimits);
  const benchEndpoints = env.CAM_GUIDE_BENCH === "1";
  const dailyLimits = liftedLimits(typeof testLimits === "string" ? DAILY_LIMITS : testLimits, {
    // WRITE_LIMIT=off: clients are not told apart by their address (visitors who all reach the
    // site through one address it cannot see past); the limits for everyone stay.
    perNetwork: writeLimit === null,
    // The benchmarks measure how fast results are saved, far beyond a day's ceiling.
    all: benchEndpoints,
  });
  // A test seam, not a setting: below 8 s Bun's 4-second timer steps make the limits meaningless.
  const rawIdle = value("CAM_GUIDE_TEST_IDLE_TIMEOUT");
  const idleTimeout = rawIdle === undefined ? IDLE_TIMEOUT_SECONDS : Number(rawIdle);
  if (!Number.isInteger(idleTimeout) || idleTimeout < 8 || idleTimeout > IDLE_TIMEOUT_SECONDS)
    problems.push(
      `CAM_GUIDE_TEST_IDLE_TIMEOUT is for tests: a whole number of seconds from 8 to 30 (got "${rawIdle}").`,
    );

  const rawCheckpoint = value("CAM_GUIDE_TEST_CHECKPOINT_SECONDS");
  const checkpointSeconds = rawCheckpoint === undefined ? CHECKPOINT_EVERY_MS / 1000 : Number(rawCheckpoint);
  if (
    !/^\d{1,2}$/.test(rawCheckpoint ?? "30") ||
    checkpointSeconds < 1 ||
    checkpointSeconds > CHECKPOINT_EVERY_MS / 1000
  )
    problems.push(
      `CAM_GUIDE_TEST_CHECKPOINT_SECONDS is for tests: a whole number of seconds from 1 to 30 (got "${rawCheckpoint}").`,
    );

  const uploadBucket = bucketConfig(value, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    uploadBucket,
    port,
    host,
    dataDir,
    publicUrl,
    jwtSecret,
    databaseUrl,
    adminUsername,
    adminPassword,
    development: env.NODE_ENV === "development",
    trustedProxies,
    writeLimit: writeLimit ?? null,
    linkCheckInterval,
    linkCheckIntervalSet: rawLinkCheck !== undefined,
    analytics: rawAnalytics !== "off",
    backupCron,
    backupKeep,
    backupDir,
    benchEndpoints,
    testLoopbackLinkPort,
    dailyLimits,
    idleTimeout,
    checkpointEveryMs: checkpointSeconds * 1000,
  };
}

/** S3_BUCKET (required for any of them), S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PREFIX. */
function bucketConfig(value: (name: string) => string | undefined, problems: string[]): BucketConfig | null {
  const bucket = value("S3_BUCKET") ?? null;
  const others = ["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_PREFIX"];
  if (bucket === null) {
    const set = others.filter((name) => value(name) !== undefined);
    if (set.length > 0)
      problems.push(
        `${set.join(", ")} ${set.length === 1 ? "is" : "are"} set but S3_BUCKET is not: name the bucket uploads are kept in, or unset them to keep uploads in DATA_DIR.`,
      );
    return null;
  }
  const endpoint = value("S3_ENDPOINT") ?? null;
  if (endpoint !== null && !/^https?:\/\/[^/\s]+/.test(endpoint))
    problems.push(
      `S3_ENDPOINT must be an http:// or https:// address, such as https://s3.eu-central-1.amazonaws.com (got "${endpoint.slice(0, 80)}").`,
    );
  const accessKeyId = value("S3_ACCESS_KEY_ID") ?? null;
  const secretAccessKey = value("S3_SECRET_ACCESS_KEY") ?? null;
  if ((accessKeyId === null) !== (secretAccessKey === null))
    problems.push(
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (then the machine's own credentials are used).",
    );
  const rawPrefix = value("S3_PREFIX") ?? "uploads/";
  const prefix = rawPrefix === "" || rawPrefix.endsWith("/") ? rawPrefix : `${rawPrefix}/`;
  return { bucket, endpoint, region: value("S3_REGION") ?? null, accessKeyId, secretAccessKey, prefix };
}
