import type { ReactNode } from "react";
import { Link } from "wouter";
import { describeRetention } from "#shared/features/settings/result-retention.ts";
import { ApiError } from "#web/lib/query-client.ts";
import { PageMeta } from "./page-meta.tsx";

/** True when a saved result's read came back "not found": null from the server's render, a 404 in the browser. */
export function resultMissing(query: { data: unknown; error: Error | null }): boolean {
  return query.data === null || (query.error instanceof ApiError && query.error.status === 404);
}

interface ResultGoneProps {
  /** What the page showed, for its tab title: "Earnings Result" becomes "Earnings Result No Longer Here". */
  page: string;
  /** What was saved, in the plural: "quiz results". */
  what: string;
  /** Days saved results are kept (Settings). */
  days: number;
  /** The way to a new result of the same kind: the quiz for a quiz result, the calculator for an estimate. */
  action: string;
  href: string;
  children?: ReactNode;
}

/**
 * A saved result's page when no such result is kept (any more): a 404 that says why, kindly,
 * and how to get one again. An expired result and a mistyped address look the same here:
 * nothing of a deleted result is left to tell them apart. Its tab title says so too.
 */
export function ResultGone({ page, what, days, action, href, children }: ResultGoneProps) {
  return (
    <section className="status-page">
      <PageMeta
        page={`${page} No Longer Here`}
        description={`This saved result is no longer kept: saved ${what} are deleted after a while.`}
        noindex
      />
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
