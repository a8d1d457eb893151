import { Elysia } from "elysia";
import { changesState } from "#server/lib/methods.ts";
import type { StorageHealth } from "#server/lib/storage-health.ts";
import { storageRefusal } from "./errors.ts";

/**
 * Refuses every request that could change data while the data cannot be kept (the database
 * file is gone or replaced: 503; no room on the disk: 507), before its body is read. One rule
 * for every write the app has or will have: public results, sign-in, admin changes, uploads.
 */
export function writeGate(storage: Pick<StorageHealth, "check">) {
  return new Elysia({ name: "write-gate" }).onRequest(({ request }) => {
    if (!changesState(request)) return;
    const state = storage.check();
    if (!state.ok) throw storageRefusal(state);
  });
}
