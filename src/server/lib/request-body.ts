import type { Server } from "elysia/universal";
import { HttpError } from "#server/plugins/errors.ts";
import { SMALL_BODY_BYTES, type TimeLimits, timeLimits } from "./time-limits.ts";

// The one reader of request bodies, and their deadlines. A body that a visitor may send (at
// most 16 KiB: a sign-in, a result, a form, a count) arrives whole within a few seconds of its
// request; a larger one (the signed-in admin's saves, previews and uploads) has no total time
// but must keep moving, so a 100 MB video from a phone on a slow network still arrives. A
// client that trickles its body is answered 408 and its connection closed (plugins/connections.ts).

/** What the connections plugin records when a request arrives; read here and there. */
export interface Arrival {
  at: number;
  server: Server | null;
  limits: TimeLimits;
  /** "reading" while a body is being read; the time the body ended (read, refused or given up). */
  body: "unread" | "reading" | { endedAt: number; whole: boolean };
  /** Bun's own idle timer was switched off for this request (a steady body); put back once answered. */
  timerOff: boolean;
}

const arrivals = new WeakMap<Request, Arrival>();

export function noteArrival(request: Request, server: Server | null, limits: TimeLimits): Arrival {
  const arrival: Arrival = { at: performance.now(), server, limits, body: "unread", timerOff: false };
  arrivals.set(request, arrival);
  return arrival;
}

/** Requests made without the plugin (unit tests of a parser) count from their first read. */
function arrivalOf(request: Request): Arrival {
  return arrivals.get(request) ?? noteArrival(request, null, timeLimits());
}

const LATE = Symbol("late");

function within<T>(read: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: Timer | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, ms));
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} seconds`;

export interface BodyLimit {
  /** Past this many bytes: 413 with `tooLarge`. Also picks the deadline (see SMALL_BODY_BYTES). */
  limit: number;
  tooLarge: string;
}

/**
 * The body's chunks as they arrive, counted (413 as soon as the count passes `limit`) and
 * timed: a small body must be whole `smallBodyWithinMs` after its request arrived; a larger
 * one must bring `steadyBytes` in every `steadyWindowMs`, and Bun's own throughput rule (16
 * KiB a second) is switched off for it meanwhile. Either rule broken: 408, nothing kept.
 * A connection that breaks is passed on as the reader's error.
 */
export async function* bodyChunks(request: Request, { limit, tooLarge }: BodyLimit): AsyncGenerator<Uint8Array> {
  const reader = request.body?.getReader();
  if (!reader) return;
  const arrival = arrivalOf(request);
  const { smallBodyWithinMs, steadyBytes, steadyWindowMs } = arrival.limits;
  const small = limit <= SMALL_BODY_BYTES;
  if (!small && arrival.server) {
    arrival.server.timeout(request, 0);
    arrival.timerOff = true;
  }
  arrival.body = "reading";
  let size = 0;
  let whole = false;
  // Steady bodies: the window starts when reading starts and again each time it brought enough.
  let windowStart = performance.now();
  let windowBytes = 0;
  try {
    for (;;) {
      const due = small ? arrival.at + smallBodyWithinMs : windowStart + steadyWindowMs;
      const next = await within(reader.read(), due - performance.now());
      if (next === LATE)
        throw new HttpError(
          408,
          small
            ? `The request took more than ${seconds(smallBodyWithinMs)} to arrive, so it was stopped; nothing was saved. Please send it again.`
            : `The request stalled: less than ${steadyBytes / 1024} KB arrived in ${seconds(steadyWindowMs)}, so it was stopped and nothing was saved. Check the connection and send it again.`,
        );
      if (next.done) {
        whole = true;
        return;
      }
      size += next.value.byteLength;
      if (size > limit) throw new HttpError(413, tooLarge);
      windowBytes += next.value.byteLength;
      if (windowBytes >= steadyBytes) {
        windowStart = performance.now();
        windowBytes = 0;
      }
      yield next.value;
    }
  } finally {
    arrival.body = { endedAt: performance.now(), whole };
    // Whatever stopped the reading (a refusal, a full disk, a deadline), the rest is not wanted.
    if (!whole) reader.cancel().catch(() => {});
  }
}

/** The whole body, within its limits (see bodyChunks). */
export async function readBody(request: Request, limit: BodyLimit): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bodyChunks(request, limit)) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/** What the connections plugin needs to know about a request's body and Bun's timer. */
export function arrivalRecord(request: Request): Arrival | undefined {
  return arrivals.get(request);
}
