// drizzle-kit for PostgreSQL: the same tables, built with PostgreSQL's column helpers
// (src/server/db/columns.ts chooses them by DATABASE_URL), migrations in drizzle-pg/.
import { defineConfig } from "drizzle-kit";

process.env.DATABASE_URL = "postgres://drizzle-kit.invalid/only-picks-the-dialect";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/db/schema.ts",
  out: "./drizzle-pg",
});
