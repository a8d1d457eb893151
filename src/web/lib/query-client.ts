import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { type FieldProblem, isFieldProblems, messagesByField } from "#shared/schema/field-problems.ts";

// The one browser API client (api, ApiError) lives beside the query client that uses it
// for every query.

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
  /** Sent as multipart/form-data (uploads). */
  form?: FormData;
  signal?: AbortSignal;
}

/**
 * Every call the browser makes to the API goes through here: the session cookie is sent,
 * nothing is cached on the way, the answer is read as JSON, and a non-OK answer throws
 * an ApiError. Anything else thrown (the network is down) is not an ApiError.
 */
export async function api<T = unknown>(
  method: string,
  url: string,
  { json, form, signal }: ApiOptions = {},
): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    cache: "no-store",
    signal,
    headers: json === undefined ? {} : { "content-type": "application/json" },
    body: form ?? (json === undefined ? undefined : JSON.stringify(json)),
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text || response.statusText);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** GET on the first key element; a 401 throws like any other failure. */
export const defaultQueryFn: QueryFunction = ({ queryKey, signal }) => api("GET", String(queryKey[0]), { signal });

export const QUERY_DEFAULTS = {
  staleTime: 60_000,
  gcTime: 5 * 60_000,
  retry: 1,
  refetchOnWindowFocus: true,
  refetchInterval: false as const,
  retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
};

/**
 * The browser's client uses QUERY_DEFAULTS. The server makes one client per request:
 * with a finite gcTime every query would arm a five-minute timer that keeps the whole
 * request's data alive, so there it is Infinity (no timer; the client dies with the request).
 */
export function createQueryClient(options: { server?: boolean } = {}): QueryClient {
  const { staleTime, retry, refetchOnWindowFocus, refetchInterval, retryDelay } = QUERY_DEFAULTS;
  const gcTime = options.server ? Infinity : QUERY_DEFAULTS.gcTime;
  return new QueryClient({
    defaultOptions: {
      queries: { queryFn: defaultQueryFn, staleTime, gcTime, retry, refetchOnWindowFocus, refetchInterval, retryDelay },
      mutations: { retry, retryDelay },
    },
  });
}
