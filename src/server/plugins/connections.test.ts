import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { clientResolver } from "#server/lib/client.ts";
import { ClientSlots, KeptConnections } from "#server/lib/connection-limits.ts";
import { readBody } from "#server/lib/request-body.ts";
import { timeLimits } from "#server/lib/time-limits.ts";
import { memoryLogger } from "#server/logger.ts";
import { connections } from "./connections.ts";
import { errorHandler } from "./errors.ts";

// The plugin around a small app. The server is a stand-in for Bun's: it says which address
// and port each request came from (from test headers) and records what Bun's timer was set to.
const LIMITS = {
  ...timeLimits(8),
  answerWithinMs: 300,
  smallBodyWithinMs: 200,
  steadyBytes: 1024,
  steadyWindowMs: 300,
};

function harness({ slots = new ClientSlots(3), kept = new KeptConnections(10_000, 2) } = {}) {
  const timers: number[] = [];
  const server = {
    requestIP: (request: Request) => ({
      address: request.headers.get("x-peer") ?? "198.51.100.7",
      port: Number(request.headers.get("x-port") ?? 40000 + Math.floor(Math.random() * 20000)),
      family: "IPv4",
    }),
    timeout: (_request: Request, seconds: number) => void timers.push(seconds),
  } as unknown as Server;
  const logger = memoryLogger();
  const app = new Elysia()
    .use(connections({ client: clientResolver(), server: () => server, limits: LIMITS, logger, slots, kept }))
    .use(errorHandler({ logger, renderErrorPage: async () => new Response("page") }))
    .get("/api/slow", async ({ query }) => {
      await Bun.sleep(Number(query.ms ?? 0));
      return { done: true };
    })
    .post("/api/steady", async ({ request }) => ({
      size: (await readBody(request, { limit: 1024 * 1024, tooLarge: "too large" })).length,
    }))
    .post("/api/small", async ({ request }) => ({
      size: (await readBody(request, { limit: 16 * 1024, tooLarge: "too large" })).length,
    }))
    .post("/api/refuse", () => new Response("no", { status: 403 }));
  const call = (path: string, init: RequestInit & { peer?: string; port?: number } = {}) => {
    const headers = new Headers(init.headers);
    if (init.peer) headers.set("x-peer", init.peer);
    if (init.port) headers.set("x-port", String(init.port));
    return app.handle(new Request(`http://localhost${path}`, { ...init, headers }));
  };
  return { call, timers, logger };
}

function stream(pieces: number, every: number, size: number) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent++ >= pieces) return controller.close();
      await Bun.sleep(every);
      controller.enqueue(new Uint8Array(size));
    },
  });
}

describe("every request is answered before the idle timeout would drop it", () => {
  test("an answer slower than its deadline is a 503 with a sentence, not silence", async () => {
    const { call, logger } = harness();
    const started = performance.now();
    const res = await call("/api/slow?ms=1500");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect((await res.json()).error).toMatch(/took more than 0 seconds to answer.*reload the page/);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(logger.lines.join("\n")).toContain("an answer took too long");
  });

  test("the deadline starts when the body has arrived: a slow steady body is not cut", async () => {
    const { call, timers } = harness();
    const res = await call("/api/steady", { method: "POST", body: stream(8, 100, 600), duplex: "half" } as RequestInit);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ size: 4800 });
    // Bun's own rule (16 KiB a second) was off while the body came, and back on for the answer.
    expect(timers).toEqual([0, LIMITS.idleSeconds]);
  });

  test("a body too slow for its deadline is a 408 that closes the connection", async () => {
    const { call } = harness();
    const res = await call("/api/small", { method: "POST", body: stream(20, 50, 1), duplex: "half" } as RequestInit);
    expect(res.status).toBe(408);
    expect(res.headers.get("connection")).toBe("close");
  });

  test("an answer that left the body unread closes the connection; a plain answer does not", async () => {
    const { call } = harness();
    const refused = await call("/api/refuse", {
      method: "POST",
      body: "x".repeat(100),
      headers: { "content-length": "100" },
    });
    expect(refused.headers.get("connection")).toBe("close");
    const ignored = await call("/api/slow", {
      body: "x".repeat(100),
      headers: { "content-length": "100" },
      method: "GET",
    });
    expect([ignored.status, ignored.headers.get("connection")]).toEqual([200, "close"]);
    expect((await call("/api/slow")).headers.get("connection")).toBeNull();
  });
});

describe("one client's share of the server", () => {
  test("past its open requests a client is refused at once (429, closed); another is served", async () => {
    const { call } = harness();
    const slow = [1, 2, 3].map(() => call("/api/slow?ms=200"));
    await Bun.sleep(20);
    const refused = await call("/api/slow");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("connection")).toBe("close");
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((await refused.json()).error).toMatch(/Too many requests from your network/);
    expect((await call("/api/slow", { peer: "203.0.113.9" })).status).toBe(200);
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await call("/api/slow")).status).toBe(200);
  });

  test("an answer given at its deadline keeps the slot until the work really ends", async () => {
    const slots = new ClientSlots(3);
    const { call } = harness({ slots });
    expect((await call("/api/slow?ms=800")).status).toBe(503);
    expect(slots.count("198.51.100.7")).toBe(1);
    await Bun.sleep(700);
    expect(slots.count("198.51.100.7")).toBe(0);
  });

  test("past its kept connections a peer's new ones are closed after their answer", async () => {
    const { call } = harness();
    expect((await call("/api/slow", { port: 5001 })).headers.get("connection")).toBeNull();
    expect((await call("/api/slow", { port: 5002 })).headers.get("connection")).toBeNull();
    expect((await call("/api/slow", { port: 5003 })).headers.get("connection")).toBe("close");
    expect((await call("/api/slow", { port: 5001 })).headers.get("connection")).toBeNull();
    expect((await call("/api/slow", { port: 5003, peer: "203.0.113.9" })).headers.get("connection")).toBeNull();
  });

  test("in process (no server, no addresses) nothing is shared out", async () => {
    const logger = memoryLogger();
    const app = new Elysia()
      .use(connections({ client: clientResolver(), server: () => null, limits: LIMITS, logger }))
      .get("/", async () => {
        await Bun.sleep(50);
        return "ok";
      });
    const answers = await Promise.all(Array.from({ length: 100 }, () => app.handle(new Request("http://localhost/"))));
    expect(answers.every((r) => r.status === 200)).toBe(true);
  });
});
