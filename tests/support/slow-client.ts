// Clients that take their time, over plain sockets from a chosen loopback address: a body sent
// a byte at a time, headers that never end, a download read slowly, a connection kept open.
// Linux answers on every 127.x.y.z address, so each test can be a network of its own.
import { connect, type Socket } from "node:net";
import { dechunk } from "./raw-http.ts";

export interface SlowAnswer {
  /** 0 when the server closed the connection without an answer. */
  status: number;
  /** By lower-case name; a repeated header's values one per line. */
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting to the first byte of the answer (null: none came). */
  answeredAfter: number | null;
  /** Milliseconds from connecting to the server closing the connection (null: it kept it open, or we gave up). */
  closedAfter: number | null;
}

export interface SlowRequest {
  port: number;
  /** The local address to connect from (default 127.0.0.1). */
  from?: string;
  /** Everything up to the blank line that ends the headers, sent at once unless `headerEvery` is set. */
  head: string;
  /** Sent piece by piece after the head, one piece every `every` ms. */
  body?: (string | Uint8Array)[];
  every?: number;
  /** Send the head itself one byte every this many ms (slow headers). */
  headerEvery?: number;
  /** Give up (and close) after this many ms without the server closing. */
  giveUpAfter?: number;
}

function parse(raw: Buffer): Pick<SlowAnswer, "status" | "headers" | "body"> {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, body: "" };
  const [statusLine = "", ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    // Repeated headers (Set-Cookie) one per line.
    headers[name] = headers[name] === undefined ? value : `${headers[name]}\n${value}`;
  }
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: raw.subarray(end + 4).toString("utf8"),
  };
}

/** The length of the complete answer at the start of `buffer` (head and body), or null while it is incomplete. */
function completeLength(buffer: Buffer): number | null {
  const end = buffer.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const head = buffer.subarray(0, end).toString("latin1");
  if (/transfer-encoding: *chunked/i.test(head)) {
    // The body as sent, chunk sizes and all; the last chunk is empty.
    const last = buffer.indexOf("\r\n0\r\n\r\n", end + 2);
    return last < 0 ? null : last + 7;
  }
  const length = end + 4 + Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  return buffer.length < length ? null : length;
}

/**
 * Sends a request as slowly as asked and waits for its answer: until the server closes the
 * connection, or, for an answer that keeps the connection open, until the answer is complete.
 */
export function slowRequest({
  port,
  from = "127.0.0.1",
  head,
  body = [],
  every = 1000,
  headerEvery,
  giveUpAfter = 30_000,
}: SlowRequest): Promise<SlowAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let answeredAfter: number | null = null;
    let done = false;
    const socket = connect({ port, host: "127.0.0.1", localAddress: from }, async () => {
      if (headerEvery === undefined) socket.write(head);
      else
        for (const byte of head) {
          if (done) return;
          socket.write(byte);
          await Bun.sleep(headerEvery);
        }
      // Piece i is due (i + 1) × `every` after the head: a timer that fires late on a busy
      // machine is made up for by the next, so the rate holds without ever running ahead.
      const bodyFrom = performance.now();
      for (const [i, piece] of body.entries()) {
        await Bun.sleep(Math.max(0, bodyFrom + (i + 1) * every - performance.now()));
        if (done || socket.destroyed) return;
        socket.write(piece);
      }
    });
    const finish = (closedAfter: number | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...parse(Buffer.concat(chunks)), answeredAfter, closedAfter });
    };
    const timer = setTimeout(() => {
      finish(null);
      socket.destroy();
    }, giveUpAfter);
    socket.on("data", (data: Buffer) => {
      answeredAfter ??= performance.now() - started;
      chunks.push(data);
      const all = Buffer.concat(chunks);
      if (completeLength(all) !== null && !/\r\nconnection: *close\r\n/i.test(all.toString("latin1"))) {
        finish(null);
        socket.destroy();
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => finish(performance.now() - started));
  });
}

/** A connection kept open for several requests, one at a time (HTTP/1.1 keep-alive). */
export interface KeptConnection {
  socket: Socket;
  /** Sends one request and resolves with its answer (a body of Content-Length bytes). */
  ask(request: string | Uint8Array): Promise<Pick<SlowAnswer, "status" | "headers" | "body">>;
  /** Whether the server has closed it. */
  closed(): boolean;
}

export function keptConnection(port: number, from = "127.0.0.1"): Promise<KeptConnection> {
  return new Promise((resolve, reject) => {
    let closed = false;
    let buffer = Buffer.alloc(0);
    let waiting: ((raw: Buffer) => void) | null = null;
    const socket = connect({ port, host: "127.0.0.1", localAddress: from }, () =>
      resolve({
        socket,
        closed: () => closed,
        ask(request) {
          return new Promise((answer, fail) => {
            if (closed) return fail(new Error("the server closed the connection"));
            waiting = (raw) => answer(parse(raw));
            socket.write(request);
          });
        },
      }),
    );
    const deliver = () => {
      const length = completeLength(buffer);
      if (length === null || !waiting) return;
      const raw = buffer.subarray(0, length);
      buffer = buffer.subarray(length);
      const next = waiting;
      waiting = null;
      next(raw);
    };
    socket.on("data", (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      deliver();
    });
    socket.on("error", reject);
    socket.on("close", () => {
      closed = true;
    });
  });
}

/** Reads a GET's whole answer at about `bytesPerSecond`, never faster. */
export function slowDownload(
  port: number,
  path: string,
  bytesPerSecond: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // Kept as pieces and joined once: joining on every read copies the file hundreds of times.
    const pieces: Buffer[] = [];
    let taken = 0;
    const socket = connect({ port, host: "127.0.0.1" }, () => {
      const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra.join("")}Connection: close\r\n\r\n`);
    });
    socket.pause();
    // Read up to what the rate allows by now, in pieces small enough to keep to it: a timer that
    // fires late on a busy machine catches up rather than stretching the read.
    const piece = Math.max(1, Math.min(16 * 1024, Math.floor(bytesPerSecond / 10)));
    const reader = setInterval(() => {
      const allowed = ((performance.now() - started) / 1000) * bytesPerSecond;
      while (taken + piece <= allowed) {
        const chunk: Buffer | null = socket.read(piece);
        if (!chunk) break;
        pieces.push(chunk);
        taken += chunk.length;
      }
    }, 100);
    socket.on("error", reject);
    socket.on("end", () => {
      clearInterval(reader);
      for (let chunk = socket.read(); chunk; chunk = socket.read()) pieces.push(chunk);
      const raw = Buffer.concat(pieces);
      const end = raw.indexOf("\r\n\r\n");
      const body = end < 0 ? Buffer.alloc(0) : raw.subarray(end + 4);
      // A large file is streamed (src/server/lib/file-answer.ts): its data, not its chunk sizes.
      const chunked = end >= 0 && /\r\ntransfer-encoding: *chunked/i.test(raw.toString("latin1", 0, end));
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw.toString("latin1", 0, 20))?.[1] ?? 0),
        bytes: chunked ? dechunk(body).length : body.length,
        ms: performance.now() - started,
      });
    });
  });
}
