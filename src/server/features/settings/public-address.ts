import { eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { canonicalOrigin, isLocalOrigin, type PublicAddress } from "#shared/features/settings/contract.ts";
import { siteSettings } from "./table.ts";

/**
 * THE source of the site's public address, for every absolute link the server writes
 * (canonical and social tags, structured data, the sitemap, the feed, robots.txt).
 * In order: PUBLIC_URL; else the origin stored in the settings (confirmed by the admin, or
 * recorded from the admin's last sign-in until confirmed); else none, and links are
 * relative where the format allows. Nothing here ever reads a request: a value from
 * one client's headers can never reach a page, feed or sitemap served to another.
 */
export interface PublicAddressStore {
  /** The origin (or PUBLIC_URL, which may carry a path) links start with; null when none is known. */
  base(): Promise<string | null>;
  describe(): Promise<PublicAddress>;
  /** The admin saves (or, with null, forgets) the address; a change empties the page cache at the admin mount. */
  save(origin: string | null): Promise<PublicAddress>;
  /**
   * After a successful admin sign-in: the Origin the browser sent (already checked as
   * this site's by the sign-in) becomes the address while the admin has not confirmed
   * one. True when the address changed.
   */
  recordSignIn(origin: string | null): Promise<boolean>;
  /** The stored origin as last read or written, without waiting (for the same-site check of admin calls). */
  known(): string | null;
  /** The settings changed elsewhere (another instance, a command): read them again. */
  reload(): Promise<void>;
}

export function publicAddressStore(db: Db, publicUrl: string | null): PublicAddressStore {
  interface Stored {
    exists: boolean;
    origin: string | null;
    confirmed: boolean;
  }
  // The settings row is read once and then kept, so every render need not query it again: on
  // one server this store is its only writer while the server runs (a restore is refused
  // meanwhile); several instances read it again when told it changed (reload). A missing row
  // is not kept, so the seed that creates it is seen.
  let held: Stored | null = null;
  async function stored(): Promise<Stored> {
    if (held) return held;
    const [row] = await db
      .select({ origin: siteSettings.publicOrigin, confirmed: siteSettings.publicOriginConfirmed })
      .from(siteSettings)
      .where(eq(siteSettings.id, 1))
      .limit(1);
    // A stored value is used only if it is still a plain origin (a row written by other means).
    const origin = canonicalOrigin(row?.origin);
    const read = { exists: row !== undefined, origin, confirmed: origin !== null && row?.confirmed === true };
    if (read.exists) held = read;
    return read;
  }

  async function current(): Promise<PublicAddress> {
    if (publicUrl) return { origin: publicUrl, source: "environment" };
    const { origin, confirmed } = await stored();
    return { origin, source: origin === null ? "none" : confirmed ? "confirmed" : "sign-in" };
  }

  async function write(origin: string | null, confirmed: boolean) {
    await db
      .update(siteSettings)
      .set({ publicOrigin: origin, publicOriginConfirmed: confirmed })
      .where(eq(siteSettings.id, 1));
    // Kept only when the row is known to exist (an update of no row stores nothing).
    held = held && { exists: true, origin, confirmed: origin !== null && confirmed };
  }

  return {
    base: async () => (await current()).origin,
    describe: current,
    async save(raw) {
      if (publicUrl) {
        throw new HttpError(
          409,
          "The public address is set by PUBLIC_URL on the server; change it there (or unset it to manage it here).",
        );
      }
      if (raw === null) {
        await write(null, false);
        return current();
      }
      const origin = canonicalOrigin(raw);
      if (!origin) {
        throw new HttpError(422, "Some fields are missing or invalid.", [
          {
            field: "origin",
            message: "Enter the address visitors use, such as https://example.com (http or https, no path)",
          },
        ]);
      }
      if (!(await stored()).exists) throw new HttpError(503, "Site settings are missing: run the seed.");
      await write(origin, true);
      return current();
    },
    async recordSignIn(raw) {
      if (publicUrl) return false;
      const origin = canonicalOrigin(raw);
      // An address only this machine or its network reaches (trying the site on one's own
      // computer) would publish links no visitor can follow: only the admin can set one.
      if (!origin || isLocalOrigin(origin)) return false;
      const now = await stored();
      if (!now.exists || now.confirmed || now.origin === origin) return false;
      await write(origin, false);
      return true;
    },
    known: () => held?.origin ?? null,
    async reload() {
      held = null;
      await stored();
    },
  };
}
