import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type ParamArgs, type QueryValues, type Read, readKey } from "#shared/read.ts";

/**
 * Query options for one answer of a declared read: the key is its address (what the
 * server put into the first HTML under the same key), the data typed by the declaration.
 * `null` instead of parameters: not known yet, nothing is fetched.
 */
export function readQuery<Result, Name extends string, Query extends string>(
  read: Read<Result, Name, Query>,
  ...args: ParamArgs<Name> | [params: null]
) {
  const params = args[0];
  return queryOptions<Result, Error, Result, [string]>({
    queryKey: [params === null ? read.path : readKey(read.path, params)],
    enabled: params !== null,
  });
}

/** A missing record arrives from the server as null; in the browser it is an error. */
export function useRead<Result, Name extends string, Query extends string>(
  read: Read<Result, Name, Query>,
  ...args: ParamArgs<Name> | [params: null]
) {
  return useQuery(readQuery(read, ...args));
}

/**
 * One answer of a read without path parameters, named by its query string (a list's page, a
 * search). While the next answer comes, the last one stays shown (isPlaceholderData says so).
 */
export function useQueryRead<Result, Query extends string>(
  read: Read<Result, never, Query>,
  query: QueryValues<Query>,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: [readKey(read.path, {}, query as Record<string, string | undefined>)],
    placeholderData: keepPreviousData,
    enabled,
  }) as ReturnType<typeof useQuery<Result, Error, Result, [string]>>;
}
