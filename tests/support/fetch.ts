import { afterEach } from "bun:test";

type Send = (path: string, init?: RequestInit) => Promise<Response>;

let restore: (() => void) | null = null;
afterEach(() => restore?.());

/**
 * Sends the browser code's fetch calls to the real app (routes, database), for example as
 * the signed-in admin with `asAdmin` from adminApp(). Undone after each test.
 */
export function routeFetchTo(send: Send): void {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, { signal: _, ...init }: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
    // happy-dom's AbortSignal is not one Bun's Request accepts; the app answers at once anyway.
    return send(url.pathname + url.search, init);
  }) as typeof fetch;
  restore = () => {
    globalThis.fetch = original;
    restore = null;
  };
}
