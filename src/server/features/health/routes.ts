import { Elysia } from "elysia";
import { type DatabaseHandle, probeDatabase } from "#server/db/client.ts";

/** 200 only after a real query succeeds, so a load balancer never routes to a broken database. */
export function healthRoutes(handle: DatabaseHandle) {
  return new Elysia({ name: "health" }).get("/healthz", async ({ set }) => {
    set.headers["cache-control"] = "no-store";
    try {
      await probeDatabase(handle);
      return { status: "ok" };
    } catch {
      set.status = 503;
      return { status: "unavailable", error: "The database cannot be used." };
    }
  });
}
