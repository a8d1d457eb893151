// What a page module says about its address besides its component: its loader (the
// queries it shows), where it sends the visitor instead, its HTTP status and whether its
// HTML may be cached.
// Each page module exports these as `route`, next to its default component; the server
// reads them before rendering, the browser before showing the page.
import type { ComponentType } from "react";
import { settingsRead } from "#shared/features/settings/reads.ts";
import { type ParamArgs, type QueryValues, type Read, readKey } from "#shared/read.ts";

export interface PageProps {
  params: Record<string, string | undefined>;
}

export interface RouteContext {
  params: PageProps["params"];
  search: URLSearchParams;
  pathname: string;
}

/** Server only, for a loader: one read's answer, or null when its record is missing; each is read once per request. */
export type Reader = <Result, Name extends string, Query extends string>(
  read: Read<Result, Name, Query>,
  ...args: ParamArgs<Name>
) => Promise<Result | null>;

export interface Redirect {
  to: string;
  /** A 301 instead of a 302. */
  permanent?: boolean;
}

/** One query a page's loader asks for, by its key; a missing record answers 404 unless it is optional. */
export interface PageQuery {
  key: string;
  /** The page shows its own "not found" state, with this status. */
  missingStatus?: number;
}

export interface PageRoute {
  /**
   * The same for every visitor at this address (path and query): the server renders it
   * once and serves it from memory until the admin changes something.
   */
  cache?: boolean;
  /** The HTTP status when it is not 200. */
  status?: number | ((context: RouteContext) => number);
  /**
   * Where this address sends the visitor instead, decided from the address alone: the
   * server answers a real 3xx, the browser navigates without rendering.
   */
  redirect?: (context: RouteContext) => Redirect | null;
  /**
   * Server only, the page's loader: the queries to put into the first HTML, resolved before
   * rendering. `read` lets one query depend on another's answer; a redirect decided from
   * data is returned instead (in the browser the page handles the missing record itself).
   */
  loader?: (context: RouteContext & { read: Reader }) => PageQuery[] | Redirect | Promise<PageQuery[] | Redirect>;
}

export interface PageModule {
  default: ComponentType<PageProps>;
  route?: PageRoute;
}

/** A query the page cannot show without: a missing record makes the whole address a 404. */
export function required<Result, Name extends string, Query extends string>(
  read: Read<Result, Name, Query>,
  ...args: [...ParamArgs<Name>, query?: QueryValues<Query>]
): PageQuery {
  return { key: readKey(read.path, args[0], args[1] as QueryValues<string> | undefined) };
}

/** A query whose record may be missing: the page shows its own state, and the address answers 404. */
export function optional<Result, Name extends string, Query extends string>(
  read: Read<Result, Name, Query>,
  ...args: [...ParamArgs<Name>, query?: QueryValues<Query>]
): PageQuery {
  return { key: readKey(read.path, args[0], args[1] as QueryValues<string> | undefined), missingStatus: 404 };
}

/** The queries a page loads before it renders: its loader's, and the site settings every page's layout reads. */
export async function pageQueries(
  route: PageRoute,
  context: RouteContext & { read: Reader },
): Promise<PageQuery[] | Redirect> {
  const queries = (await route.loader?.(context)) ?? [];
  return Array.isArray(queries) ? [required(settingsRead), ...queries] : queries;
}

export function pageStatus(route: PageRoute, context: RouteContext): number {
  return typeof route.status === "function" ? route.status(context) : (route.status ?? 200);
}
