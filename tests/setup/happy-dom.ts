import { GlobalRegistrator } from "@happy-dom/global-registrator";

// Component tests need a DOM. Keep Bun's own fetch primitives: server tests build real
// Requests for app.handle and read real Responses and streams.
const { Request, Response, Headers, ReadableStream, fetch, URL, TextEncoder, TextDecoder, FormData, File, Blob } = globalThis;
GlobalRegistrator.register({ url: "http://localhost/" });
Object.assign(globalThis, { Request, Response, Headers, ReadableStream, fetch, URL, TextEncoder, TextDecoder, FormData, File, Blob });
