import { Elysia } from "elysia";
import { changesState } from "#server/lib/methods.ts";
import type { StorageHealth } from "#server/lib/storage-health.ts";
import { storageRefusal } from "./errors.ts";

/**
 * Room kept for the admin's own small writes below the storage reserve: anonymous writes and
 * visit counts stop at the reserve, so the admin can still sign in with a code, sign out and
 * make a change (such as deleting an upload to make room) on a disk the site itself filled.
 */
export const ADMIN_RESERVE_BYTES = 256 * 1024;

export interface WriteGateOptions {
  /**
   * Requests that store nothing (signing in with the password): refused only while the data
   * itself cannot be used (503), never for want of room, so the admin can always sign in.
   */
  storesNothing?: (request: Request) => boolean;
  /** The admin's own requests: admitted below the reserve while ADMIN_RESERVE_BYTES are free. */
  admin?: (request: Request) => boolean;
}

/**
 * Refuses every request that could change data while the data cannot be kept (the database
 * file is gone or replaced: 503; no room on the disk: 507), before its body is read. One rule
 * for every write the app has or will have: public results, sign-in, admin changes, uploads.
 * For want of room, two exceptions: what stores nothing, and the admin's small writes while
 * the disk still has the admin's share of the reserve.
 */
export function writeGate(storage: Pick<StorageHealth, "check">, { storesNothing, admin }: WriteGateOptions = {}) {
  return new Elysia({ name: "write-gate" }).onRequest(({ request }) => {
    if (!changesState(request)) return;
    const state = storage.check();
    if (state.ok) return;
    if (state.status === 507 && storesNothing?.(request)) return;
    if (state.status === 507 && (state.room ?? 0) >= ADMIN_RESERVE_BYTES && admin?.(request)) return;
    throw storageRefusal(state);
  });
}
