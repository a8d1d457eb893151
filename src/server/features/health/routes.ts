import { Elysia } from "elysia";
import { probeDatabase } from "#server/db/client.ts";
import type { DatabaseAccess } from "#server/db/types.ts";
import { secretConflict } from "#server/features/auth/instances.ts";
import type { Backups } from "#server/features/backups/service.ts";
import type { StorageHealth } from "#server/lib/storage-health.ts";

/**
 * 200 only when the data can be kept: the database file opened at start is still the one in
 * DATA_DIR, the disk under it takes a write, and a real query succeeds; and the server can
 * take connections (it has file descriptors left). Otherwise 503 with the reason, so a load
 * balancer or an operator sees what is wrong.
 */
export function healthRoutes(
  handle: DatabaseAccess,
  storage: Pick<StorageHealth, "check"> & Partial<Pick<StorageHealth, "descriptorProblem">>,
  backups?: Pick<Backups, "health">,
) {
  return new Elysia({ name: "health" }).get("/healthz", async ({ set }) => {
    set.headers["cache-control"] = "no-store";
    const state = storage.check();
    const problem = (state.ok ? storage.descriptorProblem?.() : state.reason) ?? secretConflict();
    if (problem) {
      set.status = 503;
      return { status: "unavailable", error: `${problem[0]!.toUpperCase()}${problem.slice(1)}.` };
    }
    try {
      await probeDatabase(handle);
    } catch {
      set.status = 503;
      return { status: "unavailable", error: "The database cannot be used." };
    }
    // Scheduled backups add their last result; a failed one is a degraded detail, never a 503:
    // the site still serves and keeps its data, and a restart would not mend the backup.
    const backup = await backups?.health().catch(() => null);
    if (!backup) return { status: "ok" };
    return { status: "ok", details: { backup } };
  });
}
