import type { ReactNode } from "react";
import { Link } from "wouter";
import { describeRetention } from "#shared/features/settings/result-retention.ts";
import { ApiError } from "#web/lib/query-client.ts";

/** True when a saved result's read came back "not found": null from the server's render, a 404 in the browser. */
export function resultMissing(query: { data: unknown; error: Error | null }): boolean {
  return query.data === null || (query.error instanceof ApiError && query.error.status === 404);
}

interface ResultGoneProps {
  /** What was saved, in the plural: "quiz results". */
  what: string;
  /** Days saved results are kept (Settings). */
  days: number;
  action: string;
  href: string;
  children?: ReactNode;
}

/**
 * A saved result's page when no such result is kept (any more): a 404 that says why, kindly,
 * and how to get one again. An expired result and a mistyped address look the same here:
 * nothing of a deleted result is left to tell them apart.
 */
export function ResultGone({ what, days, action, href, children }: ResultGoneProps) {
  return (
    <section className="status-page">
      <h1>This result is no longer here</h1>
      <p>
        Saved {what} are kept for {describeRetention(days)} and then deleted, so this one may have expired (or the
        address was copied only in part). Nothing else about you was kept with it.
      </p>
      {children}
      <Link href={href} role="button">
        {action}
      </Link>
    </section>
  );
}
