import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { API } from "#shared/paths.ts";
import { getSettings } from "./service.ts";

export function settingsRoutes(db: Db) {
  return new Elysia({ name: "settings" }).get(API.settings, () => getSettings(db));
}
