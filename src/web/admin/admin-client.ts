import { treaty } from "@elysiajs/eden/treaty2";
import type { App } from "#server/app.ts";
import { exchange } from "#web/lib/query-client.ts";

// Every call of the admin pages goes through Eden Treaty, the client Elysia types from the
// server's own routes (type App): a renamed route, or a body or an answer that changed shape,
// fails the type check at the call. It sends through exchange() (lib/query-client.ts), so the
// cookie, the errors (ApiError, NoAnswerError), the sign-in dialog on a 401 and the retry
// rules are those of every other call of the browser.

/** What each answer answered: a change refreshes what its route changed. */
const sentFor = new WeakMap<Response, { method: string; path: string }>();

function typedClient(background: boolean) {
  async function fetcher(input: RequestInfo | URL, init: RequestInit = {}) {
    const url = String(input);
    const { response, text } = await exchange(url, init, background);
    // The whole answer was read inside exchange() (a connection dropped halfway is no answer);
    // Eden reads it again from here.
    const headers = new Headers(response.headers);
    if (text === "") headers.delete("content-type");
    const answer = new Response(text === "" ? null : text, { status: response.status, headers });
    sentFor.set(answer, { method: init.method ?? "GET", path: url.split("?", 1)[0]! });
    return answer;
  }
  // Addresses on the page's own origin; dates stay the strings the server sent (as typed).
  return treaty<App>("", { keepDomain: true, parseDate: false, fetcher: fetcher as typeof fetch }).api;
}

const client = typedClient(false);
/** The admin API (the admin guard's mount): `adminApi.settings.put(body)`, `at(adminApi.blog.post, { id }).put(body)`. */
export const adminApi = client.admin;
/** Signing in and out, and the session check: /api/auth/…. */
export const authApi = client.auth;
/** Uploads, under the guard's other mount (multipart, streamed to disk by the server). */
export const uploadApi = client.upload;
/**
 * The admin API for what a page sends by itself (an autosave, a live preview), not the
 * admin: a 401 says the session ended without opening the sign-in dialog.
 */
export const backgroundApi = typedClient(true).admin;

export type AdminApi = typeof adminApi;

/**
 * A route with its path parameter: `at(adminApi.blog.post, { id })` for the route …/blog/post/:id.
 * Eden's own call, `adminApi.blog.post({ id })`, would send a POST when the segment before the
 * parameter is a method's name ("post"); and it puts the value in the path as it is, where
 * this encodes it.
 */
export function at<P extends Record<string, string | number>, N>(route: (params: P) => N, params: P): N {
  const [value] = Object.values(params);
  return (route as unknown as Record<string, N>)[encodeURIComponent(String(value))]!;
}

/** What a call of the client answers (Eden's own result): data, or the error it failed with. */
export type Result =
  | { data: unknown; error: null; response: Response }
  | { data: null; error: { value: unknown }; response?: Response };
export type DataOf<R> = Extract<Awaited<R>, { error: null }> extends { data: infer D } ? D : never;

/**
 * The data of a typed call. A call that failed throws what exchange() threw (an ApiError with
 * the server's message and field problems, a NoAnswerError, an abort), which Eden hands over
 * as its error's value.
 */
export async function answer<R extends Result>(call: Promise<R>): Promise<DataOf<R>> {
  const result = await call;
  if (result.error) throw result.error.value;
  return result.data as DataOf<R>;
}

/** A GET route's query values (the analytics period). */
export type Query = Record<string, string | number>;

/** A route's query key: its path (and query), so a change finds by path what it makes stale. */
export function adminKey(route: { "~path": string }, query?: Query): readonly unknown[] {
  return query ? [route["~path"], query] : [route["~path"]];
}

/** A GET route's address with its query, for a link the browser follows itself (a download). */
export function adminHref(route: { "~path": string }, query: Query = {}): string {
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
  return search.size > 0 ? `${route["~path"]}?${search}` : route["~path"];
}

/** The method and path of the call an answer of the client answered (none for any other answer). */
export function requestOf(response: Response): { method: string; path: string } | undefined {
  return sentFor.get(response);
}
