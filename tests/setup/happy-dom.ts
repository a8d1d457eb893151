// Preloaded by `bun run test:components` only: component tests render React into a DOM.
// Unit and API tests run without one and parse HTML explicitly (tests/support/page.ts).
import { GlobalRegistrator } from "@happy-dom/global-registrator";

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
