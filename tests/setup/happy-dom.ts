// Preloaded by `bun run test:components` only: component tests render React into a DOM.
// Unit and API tests run without one and parse HTML explicitly (tests/support/page.ts).
import { afterEach, setDefaultTimeout } from "bun:test";
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { ensureCurrent } from "../support/built.ts";
import { TEST_DEADLINE_MS } from "../support/deadlines.ts";

// The deadline of a whole test on a busy machine (tests/support/deadlines.ts).
setDefaultTimeout(TEST_DEADLINE_MS);

// Some components are tried against a real app, whose pages link the client bundle's files.
ensureCurrent("client");

// Keep Bun's own fetch primitives, which happy-dom would replace with its own.
const { Request, Response, Headers, ReadableStream, fetch, URL, TextEncoder, TextDecoder, FormData, File, Blob } =
  globalThis;
GlobalRegistrator.register({ url: "http://localhost/" });
Object.assign(globalThis, {
  Request,
  Response,
  Headers,
  ReadableStream,
  fetch,
  URL,
  TextEncoder,
  TextDecoder,
  FormData,
  File,
  Blob,
});

// A hook in the preload runs after every test of every file: no file's routed fetch (see
// tests/support/fetch.ts) reaches the next one. Imported after the globals are in place.
const { restoreFetch } = await import("#tests/support/fetch.ts");
afterEach(restoreFetch);
// Nor does the progress one test's page remembered: each starts as a page not yet hydrated.
const { useProgressStore } = await import("#web/features/progress/store.ts");
const { EMPTY_PROGRESS } = await import("#web/features/progress/progress.ts");
afterEach(() => useProgressStore.setState({ progress: EMPTY_PROGRESS, loaded: false }));
// Nor what a page kept for its tab (a wizard's unfinished answers).
afterEach(() => sessionStorage.clear());
