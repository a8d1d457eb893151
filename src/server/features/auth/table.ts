import { boolean, integer, serialId, table, text, timestamp, timestampNow } from "#server/db/columns.ts";

export const adminUsers = table("admin_users", {
  id: serialId("id"),
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  // Bumped on logout and password reset so that every token issued before stops working.
  tokenVersion: integer("token_version").notNull().default(0),
  // Two-factor sign-in (TOTP): the secret once confirmed, the one being enrolled until then,
  // and the last time step accepted, so a code is never accepted twice.
  totpSecret: text("totp_secret"),
  totpPendingSecret: text("totp_pending_secret"),
  totpLastStep: integer("totp_last_step"),
  totpEnabledAt: timestamp("totp_enabled_at"),
  // The one open sign-in challenge (between the password and the code), by the id its cookie
  // carries: a completed sign-in or a newer password step clears or replaces it, so a
  // challenge opens at most one session. Wrong codes given with it are counted here, so the
  // bound holds however many server processes share this database.
  signInChallenge: text("sign_in_challenge"),
  signInChallengeFailures: integer("sign_in_challenge_failures").notNull().default(0),
  createdAt: timestampNow("created_at"),
  updatedAt: timestampNow("updated_at"),
});

/** Single-use recovery codes for two-factor sign-in, stored hashed. */
export const adminRecoveryCodes = table("admin_recovery_codes", {
  id: serialId("id"),
  adminId: integer("admin_id")
    .notNull()
    .references(() => adminUsers.id, { onDelete: "cascade" }),
  codeHash: text("code_hash").notNull(),
  used: boolean("used").notNull().default(false),
  usedAt: timestamp("used_at"),
  createdAt: timestampNow("created_at"),
});

/**
 * The instances serving the site from one PostgreSQL database, each with a check of the session
 * secret it signs with (an HMAC of a fixed text under JWT_SECRET: the secret cannot be found from
 * it). An instance whose JWT_SECRET differs from a running one's is refused at start: each would
 * sign the admin out of the other (features/auth/instances.ts). A row not seen for a while is an
 * instance that stopped without saying so. Unused on SQLite, which one server runs.
 */
export const runningInstances = table("running_instances", {
  /** The machine, the process and a random part: `<host>~<pid>~<random>`. */
  id: text("id").primaryKey(),
  secretCheck: text("secret_check").notNull(),
  seenAt: timestampNow("seen_at"),
});
