import { Elysia } from "elysia";
import type { DatabaseHandle } from "#server/db/client.ts";

/** 200 only after a real query succeeds, so a load balancer never routes to a broken database. */
export function healthRoutes(handle: DatabaseHandle) {
  return new Elysia({ name: "health" }).get("/healthz", ({ set }) => {
    set.headers["cache-control"] = "no-store";
    try {
      handle.sqlite.query("SELECT count(*) AS n FROM site_settings").get();
      return { status: "ok" };
    } catch {
      set.status = 503;
      return { status: "unavailable", error: "The database cannot be used." };
    }
  });
}
