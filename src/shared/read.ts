// A public GET of the API, declared once: its path pattern, the rules of its path
// parameters and the type of its answer. The server serves it over HTTP and resolves it
// for server rendering from this declaration; the browser builds its query key from it.
// Plain values only: declarations ship to public pages, which carry no schema library.

/** The rule of one path parameter (always a string); the server makes it a string schema. */
export interface ParamRule {
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  /** The message a 422 answer shows when the rule fails. */
  error?: string;
}

/** The parameter names of a path pattern: "/api/blog/post/:slug/related" gives "slug". */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

export type ParamRules<Name extends string> = { readonly [K in Name]: ParamRule };
type ReadParams<Name extends string> = { readonly [K in Name]: string | number };
export type QueryValues<Query extends string> = { readonly [K in Query]?: string };

/** The arguments that name one answer of a read: its path parameters, when it has any. */
export type ParamArgs<Name extends string> = [Name] extends [never]
  ? [params?: ReadParams<never>]
  : [params: ReadParams<Name>];

export interface Read<Result, Name extends string = string, Query extends string = never> {
  /** The path pattern, with :name parameters (Elysia's syntax). */
  readonly path: string;
  readonly params: ParamRules<Name>;
  /** Optional query-string parameters the server accepts. */
  readonly query: readonly Query[];
  /**
   * The encoded address of one answer. Without a query string it is also the TanStack
   * query key, so the cache the server fills and the browser's fetches agree.
   */
  key(...args: [...ParamArgs<Name>, query?: QueryValues<Query>]): string;
  /** Never set: carries the answer's type from the declaration to its users. */
  readonly result?: Result;
}

/** A read whose parameter names and answer type no longer matter (lists of them). */
export type AnyRead = Read<unknown, string, string>;

/** The encoded address for parameters and an optional query, for any read. */
export function readKey(path: string, params: object = {}, query: Record<string, string | undefined> = {}): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, unknown>)[name] ?? "")),
  );
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return search.size > 0 ? `${filled}?${search}` : filled;
}

/**
 * `defineRead<BlogPost | null>()("/api/blog/post/:slug", { slug: { maxLength: 120 } })`.
 * The answer type comes first, on its own, so the path's parameter names are still
 * inferred; `| null` says the record may be missing (a 404 over HTTP, null when rendered).
 */
export function defineRead<Result>() {
  return function declare<const Path extends string, const Query extends string = never>(
    path: Path,
    params: ParamRules<PathParams<Path>>,
    options: { query?: readonly Query[] } = {},
  ): Read<Result, PathParams<Path>, Query> {
    return {
      path,
      params,
      query: options.query ?? [],
      key: (...args: unknown[]) =>
        readKey(path, args[0] as object | undefined, args[1] as Record<string, string> | undefined),
    };
  };
}
