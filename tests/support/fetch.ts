type Send = (path: string, init?: RequestInit) => Promise<Response>;

// The fetch every test starts with (Bun's own, which the component tests' preload keeps).
const nativeFetch = globalThis.fetch;

/**
 * Sends the browser code's fetch calls to the real app (routes, database), for example as
 * the signed-in admin with `asAdmin` from adminApp(). Undone after each test by
 * `restoreFetch`, which the component tests' preload runs after every test of every file.
 * Answers the calls sent, as "METHOD path", each noted before it is sent, for a test that
 * checks what went out.
 */
export function routeFetchTo(send: Send): string[] {
  const sent: string[] = [];
  globalThis.fetch = ((input: RequestInfo | URL, { signal: _, ...init }: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
    const path = url.pathname + url.search;
    sent.push(`${init.method ?? "GET"} ${path}`);
    // happy-dom's AbortSignal is not one Bun's Request accepts; the app answers at once anyway.
    return send(path, init);
  }) as typeof fetch;
  return sent;
}

/** Puts the starting fetch back, whatever a test routed it to. */
export function restoreFetch(): void {
  globalThis.fetch = nativeFetch;
}
