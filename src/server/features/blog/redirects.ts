import { and, desc, eq } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { BlogRedirect } from "#shared/features/blog/contract.ts";
import { redirectTarget } from "#shared/features/blog/redirects.ts";
import { blogRedirects } from "./table.ts";

// Old blog addresses that forward for good (docs/product.md#old-addresses): written when a
// published post's slug or a category's slug changes, or a category is deleted, and read
// only when an address finds nothing else. Each old address forwards straight to where its
// content lives now: a second change moves the earlier redirects along with it, never a chain.

type Kind = BlogRedirect["kind"];

/** Where an old address forwards to, or null when it is not one. */
export async function movedTo(db: Db, kind: Kind, slug: string): Promise<string | null> {
  const [row] = await db
    .select({ toSlug: blogRedirects.toSlug })
    .from(blogRedirects)
    .where(and(eq(blogRedirects.kind, kind), eq(blogRedirects.fromSlug, slug)))
    .limit(1);
  return row ? redirectTarget({ kind, toSlug: row.toSlug }) : null;
}

/** Every redirect, newest first, with the addresses it joins. */
export async function listRedirects(db: Db): Promise<BlogRedirect[]> {
  const rows = await db.select().from(blogRedirects).orderBy(desc(blogRedirects.createdAt), desc(blogRedirects.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

export async function deleteRedirect(db: Db, id: number): Promise<void> {
  const deleted = await db.delete(blogRedirects).where(eq(blogRedirects.id, id)).returning({ id: blogRedirects.id });
  if (deleted.length === 0) throw new HttpError(404, "No redirect with that id.");
}

/**
 * The statements that move an address from `from` to `to` (null: a deleted category, to the
 * blog's list), inside the transaction that makes the change. Redirects that led to `from`
 * now lead to `to`; one from `to` goes (content answers there again); and, with `keepOld`
 * (the old address was public), `from` itself forwards to `to`.
 */
export async function recordMove(
  tx: Db,
  kind: Kind,
  from: string,
  to: string | null,
  { keepOld }: { keepOld: boolean },
): Promise<void> {
  const ofKind = eq(blogRedirects.kind, kind);
  await tx
    .update(blogRedirects)
    .set({ toSlug: to })
    .where(and(ofKind, eq(blogRedirects.toSlug, from)));
  if (to !== null) await releaseAddress(tx, kind, to);
  if (!keepOld) return;
  await tx
    .insert(blogRedirects)
    .values({ kind, fromSlug: from, toSlug: to })
    .onConflictDoUpdate({
      target: [blogRedirects.kind, blogRedirects.fromSlug],
      set: { toSlug: to, createdAt: new Date() },
    });
}

/** A post or a category takes an address back: a redirect from it would never be used again. */
export async function releaseAddress(tx: Db, kind: Kind, slug: string): Promise<void> {
  await tx.delete(blogRedirects).where(and(eq(blogRedirects.kind, kind), eq(blogRedirects.fromSlug, slug)));
}

/** A deleted post's old addresses lead nowhere: they go with it. */
export async function forgetTarget(tx: Db, kind: Kind, slug: string): Promise<void> {
  await tx.delete(blogRedirects).where(and(eq(blogRedirects.kind, kind), eq(blogRedirects.toSlug, slug)));
}
