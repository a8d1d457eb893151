import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { adminHome, type HomeOptions } from "./service.ts";

/** The admin home's one read, mounted under /api/admin behind the admin guard (see app.ts). */
export function homeAdminRoutes(db: Db, options: HomeOptions) {
  return new Elysia({ name: "home-admin" }).get("/home", ({ request }) => adminHome(db, options, request));
}
