type Send = (path: string, init?: RequestInit) => Promise<Response>;

// The fetch every test starts with (Bun's own, which the component tests' preload keeps).
const nativeFetch = globalThis.fetch;

/** Routed calls sent and not yet answered, with when each was sent. */
const pending = new Map<number, { call: string; at: number }>();
let calls = 0;
/** A call unanswered this long when its test ends was stuck, not merely late. */
const STUCK_MS = 5_000;

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
    const call = `${init.method ?? "GET"} ${path}`;
    sent.push(call);
    const id = ++calls;
    pending.set(id, { call, at: performance.now() });
    // happy-dom's AbortSignal is not one Bun's Request accepts; the app answers at once anyway.
    return send(path, init).finally(() => pending.delete(id));
  }) as typeof fetch;
  return sent;
}

/**
 * Puts the starting fetch back, whatever a test routed it to. A call the app has left
 * unanswered for STUCK_MS is named on stderr: a test that timed out then says whether it was
 * waiting on the app (and for what) or on something else.
 */
export function restoreFetch(): void {
  globalThis.fetch = nativeFetch;
  const now = performance.now();
  for (const { call, at } of pending.values())
    if (now - at > STUCK_MS)
      console.error(`a routed call still unanswered at the test's end: ${call} (${((now - at) / 1000).toFixed(1)} s)`);
  pending.clear();
}
