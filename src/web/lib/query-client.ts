import { QueryClient, type QueryFunction, type QueryKey } from "@tanstack/react-query";
import { ADMIN_MOUNTS } from "#shared/features/auth/constants.ts";
import { type FieldProblem, isFieldProblems, messagesByField } from "#shared/schema/field-problems.ts";
import { sessionEnded } from "#web/stores/session.ts";

// The browser's one way to the API (exchange, api, ApiError) lives beside the query client
// that uses it for every query; the admin pages' typed client sends through it too.

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A non-OK answer from the API. The message keeps the form 'status: body'; `error` is the
 * server's own message and `details` the fields it names, when it sent them.
 */
export class ApiError extends Error {
  readonly error: string | null;
  readonly details: FieldProblem[];

  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`${status}: ${body}`);
    this.name = "ApiError";
    const answer = parseJson(body);
    this.error = typeof answer?.error === "string" ? answer.error : null;
    this.details = isFieldProblems(answer?.details) ? answer.details : [];
  }
}

/**
 * No answer came at all: the network failed or the connection dropped before the whole
 * answer arrived. The server may or may not have done what was asked (`method`).
 */
export class NoAnswerError extends Error {
  constructor(
    cause: unknown,
    readonly method = "GET",
  ) {
    super("The server could not be reached. Check your connection and try again.", { cause });
    this.name = "NoAnswerError";
  }
}

/** The server's own sentence for a failed call when it gave one (a full disk, a refused file), else `fallback`. */
export function serverReason(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.error ? error.error : fallback;
}

/** The server's field problems of a failed call, keyed by field; empty for any other failure. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError ? messagesByField(error.details) : {};
}

export interface ApiOptions {
  /** Sent as JSON. */
  json?: unknown;
  signal?: AbortSignal;
}

/** Whether `url` is under one of the admin guard's mounts, where a 401 means the session is over. */
function behindAdminGuard(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0]!;
  return Object.values(ADMIN_MOUNTS).some((mount) => path === mount || path.startsWith(`${mount}/`));
}

/**
 * Every call the browser makes to the API goes through here (api() below, and the admin
 * pages' typed client, admin/admin-client.ts): the session cookie is sent, nothing is cached
 * on the way, and the whole answer is read. A non-OK answer throws an ApiError; no answer at
 * all throws a NoAnswerError (an abort asked for rethrows as is). A 401 from the admin API
 * tells the session store, once for every form of the dashboard, that the admin has to sign
 * in again; not when the page sent the call by itself (`background`: an autosave, a live
 * preview) and the admin has put that off.
 */
export async function exchange(
  url: string,
  init: RequestInit,
  background = false,
): Promise<{ response: Response; text: string }> {
  const method = init.method ?? "GET";
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, method, credentials: "include", cache: "no-store" });
    text = await response.text();
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new NoAnswerError(error, method);
  }
  if (!response.ok) {
    // A change the admin asked for asks them to sign in; a read or the page's own work only says so.
    if (response.status === 401 && behindAdminGuard(url)) sessionEnded(method !== "GET" && !background);
    throw new ApiError(response.status, text || response.statusText);
  }
  return { response, text };
}

/** A call by method and address, its answer read as JSON (the public pages' calls, through exchange()). */
export async function api<T = unknown>(method: string, url: string, { json, signal }: ApiOptions = {}): Promise<T> {
  const { text } = await exchange(url, {
    method,
    signal,
    headers: json === undefined ? {} : { "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A query function that keeps what the query already shows on a 401 (the admin's session
 * ended) instead of failing it: a list or an editor stays on screen, with every form in it,
 * until the admin has signed in again (the sign-in then refreshes every query).
 */
export function keepingShown<T>(get: (signal: AbortSignal, queryKey: QueryKey) => Promise<T>): QueryFunction<T> {
  return async ({ queryKey, signal, client }) => {
    try {
      return await get(signal, queryKey);
    } catch (error) {
      const shown = client.getQueryData<T>(queryKey);
      if (error instanceof ApiError && error.status === 401 && shown !== undefined) return shown;
      throw error;
    }
  };
}

/** GET on the first key element (a declared read's address), keeping what it shows on a 401. */
const defaultQueryFn = keepingShown((signal, queryKey) => api("GET", String(queryKey[0]), { signal }));

/** Whether asking again may get another answer: no answer came, a timeout (408), too many (429), a server fault (5xx). */
function worthAskingAgain(error: unknown): boolean {
  if (!(error instanceof ApiError)) return error instanceof NoAnswerError;
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

/**
 * A query's retry rule: up to `times` more attempts, never after a refusal that would come
 * again (401, 403, 404, 422 ...).
 */
export function retryQuery(times: number) {
  return (failureCount: number, error: Error) => failureCount < times && worthAskingAgain(error);
}

/**
 * A change is sent again at most once, and only when no answer came at all and sending it
 * twice leaves the same state: a PUT (the whole record replaced by the same body). An answer,
 * a refusal included, is final; a POST that creates something is never sent twice, since the
 * first may have arrived (a duplicate post is worse than a "Try again").
 */
export function retryMutation(failureCount: number, error: unknown): boolean {
  return failureCount < 1 && error instanceof NoAnswerError && error.method === "PUT";
}

const QUERY_DEFAULTS = {
  staleTime: 60_000,
  gcTime: 5 * 60_000,
  retry: retryQuery(1),
  refetchOnWindowFocus: true,
  refetchInterval: false as const,
  retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
};

/**
 * The browser's client uses QUERY_DEFAULTS. The server makes one client per request:
 * with a finite gcTime every query would arm a five-minute timer that keeps the whole
 * request's data alive, so there it is Infinity (no timer; the client dies with the request).
 * Mutations are not retried unless they say so (retryMutation).
 */
export function createQueryClient(options: { server?: boolean } = {}): QueryClient {
  const { staleTime, retry, refetchOnWindowFocus, refetchInterval, retryDelay } = QUERY_DEFAULTS;
  const gcTime = options.server ? Infinity : QUERY_DEFAULTS.gcTime;
  return new QueryClient({
    defaultOptions: {
      queries: { queryFn: defaultQueryFn, staleTime, gcTime, retry, refetchOnWindowFocus, refetchInterval, retryDelay },
      mutations: { retry: false },
    },
  });
}
