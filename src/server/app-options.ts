// What the app is built from: createApp's one options object. The server (commands/serve.ts)
// passes everything but `testHooks`; tests (tests/support/app.ts) pass the same fields and
// may add `testHooks`. Whatever is left out is made in createApp from the configuration.

import type { ChangeFeed } from "./db/changes.ts";
import type { DatabaseAccess } from "./db/types.ts";
import type { Config } from "./env.ts";
import type { Analytics } from "./features/analytics/counting.ts";
import type { SignInThrottle } from "./features/auth/throttle.ts";
import type { Backups } from "./features/backups/service.ts";
import type { CheckerNetwork } from "./features/links/network.ts";
import type { ResultRetentionPolicy } from "./features/settings/result-retention.ts";
import type { ClientSlots } from "./lib/connection-limits.ts";
import type { StorageHealth } from "./lib/storage-health.ts";
import type { Logger } from "./logger.ts";
import type { WriteBudget } from "./plugins/write-limit.ts";
import type { AssetStore } from "./ssr/assets.ts";
import type { PageCache } from "./ssr/page-cache.ts";

/**
 * The configuration the app reads (src/server/env.ts): PUBLIC_URL always; any other value left
 * out takes the default env.ts would give it (no benchmark routes, no trusted proxies, the
 * default write limit, the default daily limits, counting on, no scheduled link checks or
 * automatic backups, backups in DATA_DIR/backups, Bun's default idle timeout).
 */
type AppConfig = Pick<Config, "publicUrl"> &
  Partial<
    Pick<
      Config,
      | "benchEndpoints"
      | "trustedProxies"
      | "development"
      | "writeLimit"
      | "dailyLimits"
      | "linkCheckInterval"
      | "analytics"
      | "linkCheckIntervalSet"
      | "backupCron"
      | "backupKeep"
      | "backupDir"
      | "idleTimeout"
      | "uploadBucket"
    >
  >;

/** Whether writes can be kept (database file in place, room on the disk): /healthz and the write gate ask it. */
export type AppStorage = Pick<StorageHealth, "check" | "recheck" | "roomFor"> &
  Partial<Pick<StorageHealth, "descriptorProblem">>;

/**
 * Long-running parts the server starts and stops itself, so it passes them in. Each one left
 * out is made by createApp: what tests get.
 */
export interface AppServices {
  /** Visit counting that writes in batches, flushed on shutdown. Default: each request writes its own counts. */
  analytics?: Analytics;
  /** Automatic backups, stopped on shutdown. Default: made from the configuration and started at once. */
  backups?: Backups;
  /** Deleting expired results hourly. Default: one that deletes only when Settings change. */
  resultRetention?: ResultRetentionPolicy;
  /**
   * The rendered pages kept in memory; the server's result retention empties its visitor
   * partition. Default: a new one. Tests pass theirs to look at what it holds.
   */
  pageCache?: PageCache;
  /**
   * The requests open now, by client (each holds its slot until its answer has left). The
   * server waits for them at shutdown, before the database closes: a page still being
   * answered counts its visit. Default: a new one.
   */
  openRequests?: ClientSlots;
  /**
   * The changes other instances make (several instances on PostgreSQL): what this one keeps
   * of the settings (the public address, the link-check schedule) is read again on each.
   * Default: none (one server, the settings' only writer).
   */
  changes?: ChangeFeed;
}

/**
 * What tests replace to control time, limits and the network. Never set by a real site; the
 * one exception is `linkNetwork`, which the executable sets only under
 * CAM_GUIDE_TEST_LOOPBACK_LINK_PORT for cam-guide's own tests.
 */
export interface TestHooks {
  /** The time that decides which posts are public (a scheduled post appears at its date) and which results expired. Default: the real clock. */
  clock?: () => Date;
  /** The time visit counting, the daily limits and the admin home count by. Default: the real clock. */
  analyticsClock?: () => Date;
  /** The sign-in throttle (a clock of its own, a small limit). Default: LoginThrottle's own. */
  loginThrottle?: SignInThrottle;
  /** The per-client budget of anonymous writes, or null for none. Default: made from config.writeLimit. */
  writeLimiter?: WriteBudget | null;
  /** The visit-count beacon's own budget, or null for none. Default: BEACON_LIMIT, none when the write limit is off. */
  beaconLimiter?: WriteBudget | null;
  /**
   * Where the link checker resolves names and which addresses it may connect to. Default: the
   * public internet only. Tests pass theirs to reach servers they start on loopback.
   */
  linkNetwork?: CheckerNetwork;
}

export interface AppOptions {
  database: DatabaseAccess;
  /** Signs admin sessions (JWT_SECRET or the generated one in DATA_DIR). */
  secret: string;
  /** Where uploads are stored: DATA_DIR/uploads; DATA_DIR is the folder above it. */
  uploadsDir: string;
  storage: AppStorage;
  config: AppConfig;
  /** The client bundle and its manifest (src/server/ssr/assets.ts). */
  assets: AssetStore;
  logger: Logger;
  services?: AppServices;
  testHooks?: TestHooks;
}
