import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { SetupItemParam } from "#shared/features/home/setup.ts";
import { adminHome, type HomeOptions } from "./service.ts";
import { confirmSetupItem } from "./setup.ts";

/** The admin home's read, and the setup checklist's confirmations, mounted under /api/admin behind the admin guard (see app.ts). */
export function homeAdminRoutes(db: Db, options: HomeOptions) {
  return new Elysia({ name: "home-admin" })
    .get("/home", ({ request }) => adminHome(db, options, request))
    .put(
      "/home/setup/:item",
      async ({ params, request }) => {
        await confirmSetupItem(db, params.item);
        return adminHome(db, options, request);
      },
      { params: SetupItemParam },
    );
}
