// Serves the public reads declared in src/shared/features/*/reads.ts. One list of bound
// reads gives both the HTTP GET routes and the resolver server rendering uses, so a read
// exists in both or in neither, with the same parameter rules and the same handler.

import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Elysia, type TSchema, t } from "elysia";
import type { Db } from "#server/db/types.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { AnyRead, ParamRule, QueryValues, Read } from "#shared/read.ts";

/** What a read's handler may use. */
export interface ReadContext {
  db: Db;
  /** How the legal pages name the operator's contact: the site's public address, or a phrase when none is known. */
  contact: () => Promise<string>;
  /** The time that decides what is public (a scheduled post appears at its date); tests pass their own clock. */
  now: () => Date;
}

type Handler<Result, Name extends string, Query extends string> = (
  context: ReadContext,
  params: { [K in Name]: string },
  query: QueryValues<Query>,
) => Result | Promise<Result>;

export interface ServedRead {
  read: AnyRead;
  handle: Handler<unknown, string, string>;
  /** The answer's Cache-Control header over HTTP, when it must differ from the default. */
  cacheControl?: string;
}

/** Binds a handler to a declaration; the handler may return a value or a Promise. */
export function serveRead<Result, Name extends string, Query extends string>(
  read: Read<Result, Name, Query>,
  handle: Handler<Result, Name, Query>,
  options: { cacheControl?: string } = {},
): ServedRead {
  return { read: read as unknown as AnyRead, handle: handle as Handler<unknown, string, string>, ...options };
}

/** Answers a read's address (its query key); rejects with a 404 HttpError when nothing is there. */
export type ReadResolver = (key: string) => Promise<unknown>;

function paramsSchema(rules: Record<string, ParamRule>) {
  const entries = Object.entries(rules);
  return entries.length === 0
    ? undefined
    : t.Object(Object.fromEntries(entries.map(([name, rule]) => [name, t.String(rule)])));
}

function querySchema(names: readonly string[]) {
  return names.length === 0
    ? undefined
    : t.Object(Object.fromEntries(names.map((name) => [name, t.Optional(t.String())])));
}

/**
 * The first value of each parameter a read declares, as a page reads its address: a parameter
 * given twice (?page=1&page=2) means the same to the page and to its read.
 */
function firstValues(search: URLSearchParams, names: readonly string[]): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const name of names) {
    const value = search.get(name);
    if (value !== null) values[name] = value;
  }
  return values;
}

async function answer(
  served: ServedRead,
  context: ReadContext,
  params: Record<string, string>,
  query: Record<string, string | undefined>,
) {
  const value = await served.handle(context, params, query);
  if (value === null || value === undefined) throw new HttpError(404, "Not found.");
  return value;
}

export function createReads(
  reads: readonly ServedRead[],
  context: ReadContext,
): { routes: Elysia; resolve: ReadResolver } {
  const routes = new Elysia({ name: "public-reads" });
  const matchers = reads.map((served) => {
    const params = paramsSchema(served.read.params);
    const query = querySchema(served.read.query);
    const check = params ? TypeCompiler.Compile(params as TSchema) : null;
    // A rule that says what it asks for (its `error`) answers a 422 with those words; any other
    // broken rule (an id too long, empty) names nothing: a 404, as for an id nothing has.
    const rules = Object.entries(served.read.params as Record<string, ParamRule>);
    const explained = rules.some(([, rule]) => rule.error)
      ? paramsSchema(Object.fromEntries(rules.map(([name, rule]) => [name, rule.error ? rule : {}])))
      : undefined;
    routes.get(
      served.read.path,
      ({ params: values, request, set }) => {
        if (check && !check.Check(values)) throw new HttpError(404, "Not found.");
        if (served.cacheControl) set.headers["cache-control"] = served.cacheControl;
        const search = new URL(request.url).searchParams;
        return answer(served, context, values as Record<string, string>, firstValues(search, served.read.query));
      },
      { ...(explained ? { params: explained } : {}), ...(query ? { query } : {}) },
    );
    return { served, segments: served.read.path.split("/"), check };
  });

  async function resolve(key: string): Promise<unknown> {
    // Split by hand: new URL() would resolve "/api/quiz/result/.." to another path.
    const [pathname = "", search = ""] = key.split("?", 2);
    const parts = pathname.split("/");
    for (const { served, segments, check } of matchers) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      // Parameters the HTTP route would refuse (422) name nothing a page can show.
      if (check && !check.Check(params)) throw new HttpError(404, `No data for ${pathname}`);
      return answer(served, context, params, firstValues(new URLSearchParams(search), served.read.query));
    }
    // A key no read declares names nothing that exists.
    throw new HttpError(404, `No data for ${pathname}`);
  }

  return { routes: routes as unknown as Elysia, resolve };
}

/** Path parameters by name, decoded as the HTTP router decodes them, or null when the path differs. */
function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i]!;
    const part = parts[i]!;
    if (segment.startsWith(":")) {
      try {
        params[segment.slice(1)] = decodeURIComponent(part);
      } catch {
        return null;
      }
    } else if (segment !== part) return null;
  }
  return params;
}
