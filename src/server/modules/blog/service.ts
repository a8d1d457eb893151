import { asc } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { blogCategories } from "../../db/schema/index.ts";
import type { BlogCategory } from "../../../shared/contract/blog.ts";

export function listCategories(db: Db): BlogCategory[] {
  return db.select().from(blogCategories).orderBy(asc(blogCategories.name)).all();
}
