import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { keepingShown, retryMutation } from "#web/lib/query-client.ts";
import { adminKey, answer, type DataOf, type Query, type Result, requestOf } from "./admin-client.ts";
import { refreshAfter } from "./admin-refresh.ts";

// The admin client's calls as TanStack queries and mutations, kept apart from the client
// (admin-client.ts), which the sign-in forms use without them.

/** A route with a GET: `adminApi.blog.posts`, `authApi.me`. */
interface Readable<R extends Result> {
  "~path": string;
  get(options?: { query?: Record<string, unknown>; fetch?: RequestInit }): Promise<R>;
}

/** Query options for a GET route, typed by the server's answer; a 401 keeps what is shown. */
export function adminQuery<R extends Result>(route: Readable<R>, query?: Query) {
  return queryOptions({
    queryKey: adminKey(route, query),
    queryFn: keepingShown((signal) => answer(route.get({ query, fetch: { signal } }))),
  });
}

/** Marks stale what a change to `path` changed (refreshAfter); answers once what is on screen is fetched again. */
function refresh(queryClient: QueryClient, path: string) {
  return queryClient.invalidateQueries({ predicate: refreshAfter(path) });
}

/** Refreshes what a change to a route changed, for a change made of several calls (a link check's run). */
export function useAdminRefresh() {
  const queryClient = useQueryClient();
  return (route: { "~path": string }) => refresh(queryClient, route["~path"]);
}

/**
 * Sends typed calls that change something: each answers its data once every query of what
 * it changed has been refreshed.
 */
export function useAdminSend() {
  const queryClient = useQueryClient();
  return async function send<R extends Result>(call: Promise<R>): Promise<DataOf<R>> {
    const result = await call;
    if (result.error) throw result.error.value;
    const sent = requestOf(result.response);
    if (!sent) throw new Error("An admin change must be sent through the admin client.");
    if (sent.method !== "GET") await refresh(queryClient, sent.path);
    return result.data as DataOf<R>;
  };
}

/**
 * A change as a mutation: `change(variables)` makes one typed call, which refreshes what it
 * changed; sent again only as retryMutation allows.
 */
export function useAdminChange<V, R extends Result>(change: (variables: V) => Promise<R>) {
  const send = useAdminSend();
  return useMutation<DataOf<R>, Error, V>({ mutationFn: (variables) => send(change(variables)), retry: retryMutation });
}
