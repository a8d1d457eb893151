import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { PublicAddressInput, SiteSettings } from "#shared/features/settings/contract.ts";
import type { PublicAddressStore } from "./public-address.ts";
import { getAdminSettings, updateSettings } from "./service.ts";

/**
 * The brand, the two platforms and the site's public address, mounted under /api/admin
 * behind the admin guard (see app.ts).
 */
export function settingsAdminRoutes(db: Db, address: PublicAddressStore) {
  return new Elysia({ name: "settings-admin" })
    .get("/settings", () => getAdminSettings(db))
    .put("/settings", ({ body }) => updateSettings(db, body), adminJson(SiteSettings))
    .get("/settings/address", () => address.describe())
    .put("/settings/address", ({ body }) => address.save(body.origin), adminJson(PublicAddressInput))
    .delete("/settings/address", () => address.save(null));
}
