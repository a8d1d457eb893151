// HTTP/1.1 over a plain socket, for requests fetch() cannot send: a missing, empty or
// malformed Host, several Host headers, absolute-form targets, control characters.
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body, de-chunked, as text. */
  body: string;
  /** Everything the server sent, as text. */
  raw: string;
}

/** A chunked body's data, without the chunk sizes. */
export function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const end = body.indexOf("\r\n", at);
    if (end < 0) break;
    const size = Number.parseInt(body.subarray(at, end).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Sends `text` as-is (use "Connection: close") and reads the answer until the server closes. */
export function rawRequest(port: number, text: string | Uint8Array, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms: ${Buffer.concat(chunks).toString("latin1")}`));
    }, timeoutMs);
    socket.on("data", (data: Buffer) => chunks.push(data));
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      const head = all.subarray(0, split < 0 ? all.length : split).toString("latin1");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
      }
      const rest = split < 0 ? Buffer.alloc(0) : all.subarray(split + 4);
      const body = /chunked/i.test(headers["transfer-encoding"] ?? "") ? dechunk(rest) : rest;
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body: body.toString("utf8"),
        raw: all.toString("latin1"),
      });
    });
  });
}
