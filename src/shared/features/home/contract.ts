import type { RecoveryCodeState } from "#shared/features/auth/contract.ts";
import type { PublicAddress } from "#shared/features/settings/contract.ts";
import type { LinkCheckSchedule } from "#shared/features/settings/link-checks.ts";
import type { SetupItem } from "./setup.ts";

/** The last backup run, as the admin home shows it. */
export interface HomeBackup {
  status: "running" | "ok" | "failed";
  trigger: "schedule" | "manual";
  startedAt: string;
  finishedAt: string | null;
  /** Bytes, once written. */
  size: number | null;
  /** Why it failed, in one sentence. */
  error: string | null;
}

/**
 * Requests arrived through a reverse proxy (they carry X-Forwarded-For from a loopback or
 * private address) that TRUSTED_PROXIES does not name: every visitor looks like the proxy.
 */
export interface UntrustedProxy {
  /** The proxy's address, as TRUSTED_PROXIES would take it. */
  peer: string;
  /** When the first such request arrived (ISO time). */
  seenAt: string;
}

/** Everything the admin home shows, in one answer (GET /api/admin/home). */
export interface AdminHome {
  /** The setup checklist's open items the owner has not confirmed (empty once all are done). */
  setup: SetupItem[];
  posts: {
    /** Published and visible now. */
    published: number;
    drafts: number;
    /** Published with a publish date still to come: hidden until then. */
    scheduled: number;
  };
  links: {
    total: number;
    /** Active links whose last check found them broken, blocked (refusing robots) or redirected. */
    broken: number;
    blocked: number;
    redirected: number;
    /** Active links not checked yet. */
    unchecked: number;
    /** Links turned off. */
    off: number;
    /** Every checked link got no answer at all: the server itself may be offline. */
    offline: boolean;
    /** When the links are checked by themselves. */
    schedule: LinkCheckSchedule;
  };
  /** The latest backup run; null when none ever ran. */
  backup: HomeBackup | null;
  /**
   * Whether cam-guide backs this site's database up (SQLite). False on PostgreSQL, which is
   * backed up where it lives: the home then asks for no backup here.
   */
  backupsHere: boolean;
  /** Visitors and link clicks of the last 7 days (UTC, today included); null when ANALYTICS is off. */
  analytics: { from: string; to: string; visitors: number; clicks: number } | null;
  address: PublicAddress;
  /** The signed-in admin's recovery codes; null while two-factor sign-in is off. */
  recoveryCodes: RecoveryCodeState | null;
  /** A proxy TRUSTED_PROXIES should name, seen since the server started; null when none was. */
  proxy: UntrustedProxy | null;
  /** What `cam-guide --version` says: "cam-guide 0.1.0 (commit 1a2b3c4d5e6f)". */
  version: string;
}
