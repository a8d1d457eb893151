// HTTP/1.1 over a plain socket from a chosen local address, for tests that need the server
// to see different peers (127.0.0.2, ::1...) or to send header bytes fetch would refuse.
// Linux answers on every 127.x.y.z address, so a test can be many clients at once.
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
}

export interface RawRequest {
  /** The local address the connection comes from: 127.0.0.1 (default), 127.0.0.7, ::1. */
  from?: string;
  method?: string;
  path?: string;
  /** Sent as given, in this order; a list sends the header several times. */
  headers?: Record<string, string | string[]>;
  body?: string;
}

/** Sends one request to the server on `port` (listening on "::" or a matching address) and reads the whole answer. */
export function httpFrom(port: number, request: RawRequest = {}): Promise<RawResponse> {
  const { from = "127.0.0.1", method = "GET", path = "/", headers = {}, body } = request;
  const host = from.includes(":") ? "::1" : "127.0.0.1";
  const lines = [`${method} ${path} HTTP/1.1`];
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  if (!names.includes("host")) lines.push(`Host: ${from.includes(":") ? "[::1]" : "127.0.0.1"}:${port}`);
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  const bytes = body === undefined ? undefined : Buffer.from(body, "utf8");
  if (bytes || !["GET", "HEAD"].includes(method)) lines.push(`Content-Length: ${bytes?.length ?? 0}`);
  lines.push("Connection: close");
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host, localAddress: from }, () => {
      socket.write(bytes ? Buffer.concat([head, bytes]) : head);
    });
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer from port ${port} within 15 s`)));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parse(raw: Buffer): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`not an HTTP answer: ${JSON.stringify(raw.toString("latin1").slice(0, 200))}`);
  const [statusLine = "", ...headerLines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers = new Headers();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let payload = raw.subarray(end + 4);
  if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") payload = dechunk(payload);
  return { status, headers, body: payload.toString("utf8") };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
