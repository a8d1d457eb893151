import { and, count, eq, gt, isNull, lte, or } from "drizzle-orm";
import { VERSION_LINE } from "#server/build-info.ts";
import { dialect } from "#server/db/dialect.ts";
import type { Db } from "#server/db/types.ts";
import { dailyCounts } from "#server/features/analytics/reads.ts";
import { latestBackupRun } from "#server/features/backups/runs.ts";
import { blogPosts } from "#server/features/blog/table.ts";
import { links } from "#server/features/links/table.ts";
import { addDays, utcDay } from "#server/lib/utc-day.ts";
import { METRICS } from "#shared/features/analytics/constants.ts";
import type { RecoveryCodeState } from "#shared/features/auth/contract.ts";
import type { AdminHome } from "#shared/features/home/contract.ts";
import { looksOffline } from "#shared/features/links/health.ts";
import { setupChecklist } from "./setup.ts";

// The admin home (docs/product.md#admin-home): a few small reads of what other features keep,
// gathered into one answer so the first screen needs one request.

/** Published, draft and scheduled posts at `now` (scheduled: published with a publish date still to come). */
async function postCounts(db: Db, now: Date): Promise<AdminHome["posts"]> {
  const countWhere = async (where: ReturnType<typeof and>) =>
    (await db.select({ n: count() }).from(blogPosts).where(where))[0]?.n ?? 0;
  const [published, drafts, scheduled] = await Promise.all([
    countWhere(and(eq(blogPosts.published, true), or(isNull(blogPosts.publishAt), lte(blogPosts.publishAt, now)))),
    countWhere(eq(blogPosts.published, false)),
    countWhere(and(eq(blogPosts.published, true), gt(blogPosts.publishAt, now))),
  ]);
  return { published, drafts, scheduled };
}

/** The links by what their last check found; `schedule` is filled in by the caller. */
async function linkCounts(db: Db): Promise<Omit<AdminHome["links"], "schedule">> {
  const rows = await db
    .select({
      active: links.active,
      healthClass: links.healthClass,
      lastCheckedAt: links.lastCheckedAt,
      lastStatus: links.lastStatus,
    })
    .from(links);
  const counts = { total: rows.length, broken: 0, blocked: 0, redirected: 0, unchecked: 0, off: 0 };
  for (const link of rows) {
    if (!link.active) counts.off++;
    else if (link.healthClass === null) counts.unchecked++;
    else if (link.healthClass !== "healthy") counts[link.healthClass]++;
  }
  const offline = looksOffline(
    rows.map((row) => ({ ...row, lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null })),
  );
  return { ...counts, offline };
}

/** Visitors and link clicks of the 7 days ending `today` (UTC), from the analytics' daily counts. */
async function weekCounts(db: Db, today: string): Promise<NonNullable<AdminHome["analytics"]>> {
  const from = addDays(today, -6);
  const rows = await dailyCounts(db, from, today);
  const sum = (metric: string) => rows.reduce((total, row) => (row.metric === metric ? total + row.count : total), 0);
  return { from, to: today, visitors: sum(METRICS.visitors), clicks: sum(METRICS.click) };
}

export interface HomeOptions {
  /** ANALYTICS: whether anything is counted. */
  analytics: boolean;
  schedule: () => AdminHome["links"]["schedule"];
  address: () => Promise<AdminHome["address"]>;
  /** The recovery codes of the admin signed in with this request (null while two-factor sign-in is off). */
  recoveryCodes: (request: Request) => Promise<RecoveryCodeState | null>;
  /** The proxy TRUSTED_PROXIES should name, when requests came through one it does not. */
  proxy: () => AdminHome["proxy"];
  /** Whether BACKUP_DIR is inside DATA_DIR or on its disk. */
  backupsBesideData: () => boolean;
  /** Tests pass their own. */
  clock?: () => Date;
}

/** Everything the admin home shows to the admin signed in with `request`. */
export async function adminHome(db: Db, options: HomeOptions, request: Request): Promise<AdminHome> {
  const now = options.clock?.() ?? new Date();
  const [posts, linkHealth, backup, analytics, address, recoveryCodes] = await Promise.all([
    postCounts(db, now),
    linkCounts(db),
    latestBackupRun(db),
    options.analytics ? weekCounts(db, utcDay(now)) : null,
    options.address(),
    options.recoveryCodes(request),
  ]);
  const proxy = options.proxy();
  const setup = await setupChecklist(db, { address, proxy, backupsBesideData: options.backupsBesideData });
  return {
    setup,
    posts,
    links: { ...linkHealth, schedule: options.schedule() },
    backup,
    backupsHere: dialect === "sqlite",
    analytics,
    address,
    recoveryCodes,
    proxy,
    version: VERSION_LINE,
  };
}
