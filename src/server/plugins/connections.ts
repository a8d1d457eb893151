import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { type ClientOf, clientKey, peerOf } from "#server/lib/client.ts";
import { ClientSlots, KeptConnections, MAX_OPEN_PER_CLIENT } from "#server/lib/connection-limits.ts";
import { type Arrival, noteArrival } from "#server/lib/request-body.ts";
import type { TimeLimits } from "#server/lib/time-limits.ts";
import type { Logger } from "#server/logger.ts";
import { isApiPath } from "./errors.ts";

// Every request passes here first and last (Elysia's wrap around its whole handler, the one
// hook that sees static files, early refusals and errors alike): a client's share of the
// server is checked before anything reads the request, and every answer leaves before Bun's
// idle timeout would drop the connection without one. See docs/security.md, "Connections,
// timeouts and slow clients".

export interface ConnectionsOptions {
  /** Who the client is (through trusted proxies): whose share a request takes. */
  client: ClientOf;
  /** The listening server, once there is one (null in process: no addresses, no shares). */
  server: () => Server | null;
  limits: TimeLimits;
  logger: Logger;
  /** Tests pass their own ledgers. */
  slots?: ClientSlots;
  kept?: KeptConnections;
}

/** The share of the requests whose client had left before they reached the app. */
const GONE = "(connection closed)";

function answer(request: Request, status: number, message: string, headers: Record<string, string>): Response {
  const api = isApiPath(new URL(request.url).pathname);
  return new Response(api ? JSON.stringify({ error: message }) : `${message}\n`, {
    status,
    headers: {
      "content-type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      ...headers,
    },
  });
}

/** A response with one more header (some responses' headers cannot be changed: then a copy). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** Whether the client sent a body the server did not take whole (refused, too slow, never read). */
function bodyLeftOver(request: Request, arrival: Arrival): boolean {
  if (typeof arrival.body === "object") return !arrival.body.whole;
  const declared = request.headers.get("content-length");
  const sent = request.headers.has("transfer-encoding") || (declared !== null && declared !== "0");
  return sent && arrival.body === "unread";
}

interface Waiting {
  request: Request;
  arrival: Arrival;
  /** Answers early, once: the work's own answer is then dropped. */
  answer(response: Response): void;
}

export function connections({ client, server: serverOf, limits, logger, slots, kept }: ConnectionsOptions) {
  const open = slots ?? new ClientSlots();
  const peers = kept ?? new KeptConnections(limits.keepAliveMs);
  const seconds = Math.round(limits.answerWithinMs / 1000);
  let warnedAt = Number.NEGATIVE_INFINITY;

  // Answers that are still being worked on, checked twice a second while requests come.
  const waiting = new Set<Waiting>();
  let ticker: Timer | null = null;
  let ticks = 0;
  let idleTicks = 0;
  const tick = () => {
    const now = performance.now();
    for (const entry of waiting) {
      const { body, at } = entry.arrival;
      // A body still arriving is timed by its reader; the answer's time starts when it ends.
      if (body === "reading") continue;
      const from = typeof body === "object" ? body.endedAt : at;
      if (now - from < limits.answerWithinMs) continue;
      waiting.delete(entry);
      const { method, url } = entry.request;
      logger.warn("an answer took too long: the client was told so (503)", {
        method,
        path: new URL(url).pathname,
        seconds,
      });
      entry.answer(
        answer(
          entry.request,
          503,
          `The server took more than ${seconds} seconds to answer, so it stopped waiting. If you were saving something, reload the page to see whether it was saved before sending it again.`,
          { "retry-after": "30" },
        ),
      );
    }
    // Connections Bun has closed meanwhile are forgotten now and then, not only when their peer returns.
    if (++ticks % 20 === 0) peers.sweep();
    // Stopped after ten quiet seconds; the next request starts it again.
    idleTicks = waiting.size === 0 ? idleTicks + 1 : 0;
    if (idleTicks >= 20 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };

  return new Elysia({ name: "connections" }).wrap((handle) => (request: Request): Response | Promise<Response> => {
    const server = serverOf();
    const arrival = noteArrival(request, server, limits);
    const socket = peerOf(request, server);
    const seen = socket ? client(request, server) : null;
    // An IPv4 address as it is, an IPv6 one by its /64. A request whose connection is already
    // gone has no address: those share one key, so they are bounded and waited for at
    // shutdown like any other (in process, without a server, nothing is counted).
    const key = seen ? clientKey(seen.address) : server ? GONE : null;
    if (open.closed) {
      return answer(request, 503, "The server is restarting. Please try again in a few seconds.", {
        "retry-after": "5",
        connection: "close",
      });
    }
    if (key !== null && !open.take(key)) {
      const now = performance.now();
      if (now - warnedAt > 60_000) {
        warnedAt = now;
        logger.warn("connection limit reached: refusing requests from a client with too many open (429)", {
          address: seen?.address,
          limit: MAX_OPEN_PER_CLIENT,
        });
      }
      return answer(
        request,
        429,
        "Too many requests from your network are still open. Please try again in a few seconds.",
        { "retry-after": "5", connection: "close" },
      );
    }
    // Connections are counted per socket peer; a trusted proxy keeps its own for many clients.
    const peer = socket && !seen?.viaProxy ? key : null;
    const keep = peer !== null && socket ? peers.begin(peer, socket.port) : true;

    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (key !== null) open.release(key);
    };
    // The answer as it leaves: whether its connection stays open, and Bun's timer back on.
    const finish = (response: Response): Response => {
      // A body left unread would have to arrive before the connection could take another
      // request, at whatever pace the client likes: the connection ends with the answer.
      const refused = response.status >= 400;
      const close =
        !keep ||
        bodyLeftOver(request, arrival) ||
        (refused && (response.status === 408 || response.headers.get("connection")?.toLowerCase() === "close"));
      let out = response;
      if (close) out = withHeader(out, "connection", "close");
      if (peer !== null && socket && keep) peers.end(peer, socket.port, close);
      if (arrival.timerOff) {
        arrival.timerOff = false;
        try {
          server?.timeout(request, limits.idleSeconds);
        } catch {
          // the connection is gone
        }
      }
      return out;
    };

    let work: Response | Promise<Response>;
    try {
      work = (handle as unknown as (request: Request) => Response | Promise<Response>)(request);
    } catch (error) {
      release();
      throw error;
    }
    if (!(work instanceof Promise)) {
      release();
      return finish(work);
    }
    return new Promise<Response>((resolve, reject) => {
      let answered = false;
      const entry: Waiting = {
        request,
        arrival,
        answer(response) {
          answered = true;
          resolve(finish(response));
        },
      };
      waiting.add(entry);
      idleTicks = 0;
      if (!ticker) {
        ticker = setInterval(tick, 500);
        ticker.unref();
      }
      work.then(
        (response) => {
          waiting.delete(entry);
          release();
          // Too late: the client already has its answer; this one's body is not sent.
          if (answered) void response.body?.cancel().catch(() => {});
          else resolve(finish(response));
        },
        (error) => {
          waiting.delete(entry);
          release();
          if (!answered) reject(error);
        },
      );
    });
  });
}
