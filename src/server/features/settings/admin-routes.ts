import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { SiteSettings } from "#shared/features/settings/contract.ts";
import { getSettings, updateSettings } from "./service.ts";

/** The brand and the two platforms, mounted under /api/admin behind the admin guard (see app.ts). */
export function settingsAdminRoutes(db: Db) {
  return new Elysia({ name: "settings-admin" })
    .get("/settings", () => getSettings(db))
    .put("/settings", ({ body }) => updateSettings(db, body), adminJson(SiteSettings));
}
