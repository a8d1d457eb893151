import { Elysia } from "elysia";
import type { Db } from "../../db/client.ts";
import { listCategories } from "./service.ts";

export function blogRoutes(db: Db) {
  return new Elysia({ name: "blog" }).get("/api/blog/categories", () => listCategories(db));
}
