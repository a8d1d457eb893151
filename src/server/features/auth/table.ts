import { integer, serialId, table, text, timestampNow } from "#server/db/columns.ts";

export const adminUsers = table("admin_users", {
  id: serialId("id"),
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  // Bumped on logout and password reset so that every token issued before stops working.
  tokenVersion: integer("token_version").notNull().default(0),
  createdAt: timestampNow("created_at"),
  updatedAt: timestampNow("updated_at"),
});
