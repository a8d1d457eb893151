import { QueryClient, type QueryFunction } from "@tanstack/react-query";

/** A non-OK answer: the message has the form 'status: body' (SPEC 7). */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: string,
  ) {
    super(`${status}: ${body}`);
    this.name = "ApiError";
  }
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (!response.ok) throw new ApiError(response.status, (await response.text()) || response.statusText);
}

/** JSON request with credentials and no HTTP caching, as every call of SPEC 7. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    cache: "no-store",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(response);
  return response;
}

/** GET on the first key element; a 401 throws like any other failure. */
export const defaultQueryFn: QueryFunction = async ({ queryKey, signal }) => {
  const response = await fetch(String(queryKey[0]), { credentials: "include", cache: "no-store", signal });
  await throwIfNotOk(response);
  return response.json();
};

export const QUERY_DEFAULTS = {
  staleTime: 60_000,
  gcTime: 5 * 60_000,
  retry: 1,
  refetchOnWindowFocus: true,
  refetchInterval: false as const,
  retryDelay: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
};

/**
 * The browser's client uses SPEC 7's defaults. The server makes one client per request:
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
