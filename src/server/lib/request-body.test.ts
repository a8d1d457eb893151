import { describe, expect, test } from "bun:test";
import { refusal } from "#tests/support/refusal.ts";
import { arrivalRecord, bodyChunks, noteArrival, readBody } from "./request-body.ts";
import { SMALL_BODY_BYTES, timeLimits } from "./time-limits.ts";

// Short limits, so a slow body is slow within a test: small bodies whole in 200 ms, larger
// ones at least 1 KiB every 300 ms.
const LIMITS = { ...timeLimits(), smallBodyWithinMs: 200, steadyBytes: 1024, steadyWindowMs: 300 };

/** A request whose body arrives as `pieces`, each after its delay in ms. */
function trickled(pieces: [delay: number, bytes: number][]): Request {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const piece = pieces[at++];
      if (!piece) return controller.close();
      await Bun.sleep(piece[0]);
      controller.enqueue(new Uint8Array(piece[1]).fill(97));
    },
  });
  const request = new Request("http://localhost/", { method: "POST", body, duplex: "half" } as RequestInit);
  noteArrival(request, null, LIMITS);
  return request;
}

const refused = (work: Promise<unknown>) => refusal(work, "the body was taken");

const small = { limit: SMALL_BODY_BYTES, tooLarge: "too large" };
const large = { limit: 1024 * 1024, tooLarge: "too large" };

describe("a small body (what a visitor may send) arrives whole within its deadline", () => {
  test("in time: taken whole", async () => {
    expect(
      (
        await readBody(
          trickled([
            [0, 100],
            [50, 100],
          ]),
          small,
        )
      ).length,
    ).toBe(200);
  });

  test("trickled past the deadline: 408 with a sentence, the rest not read", async () => {
    const request = trickled(Array.from({ length: 20 }, () => [40, 1] as [number, number]));
    const started = performance.now();
    const error = await refused(readBody(request, small));
    expect(error.status).toBe(408);
    expect(error.message).toMatch(/took more than \d+ seconds to arrive.*nothing was saved/);
    expect(performance.now() - started).toBeLessThan(400);
    expect(arrivalRecord(request)?.body).toMatchObject({ whole: false });
  });

  test("never started: 408 at the deadline", async () => {
    expect((await refused(readBody(trickled([[5_000, 1]]), small))).status).toBe(408);
  });

  test("too large: 413 as soon as the count passes the limit", async () => {
    const error = await refused(
      readBody(
        trickled([
          [0, SMALL_BODY_BYTES],
          [0, 1],
        ]),
        small,
      ),
    );
    expect(error.status).toBe(413);
  });
});

describe("a larger body (the admin's saves and uploads) must keep moving, however long it takes", () => {
  test("slow but steady: taken whole, long after a small body's deadline", async () => {
    const request = trickled(Array.from({ length: 8 }, () => [100, 600] as [number, number]));
    const started = performance.now();
    expect((await readBody(request, large)).length).toBe(4800);
    expect(performance.now() - started).toBeGreaterThan(LIMITS.smallBodyWithinMs * 3);
    expect(arrivalRecord(request)?.body).toMatchObject({ whole: true });
  });

  test("stalled: 408 once a window brings too little", async () => {
    const request = trickled([
      [0, 2048],
      [100, 10],
      [400, 10],
    ]);
    const error = await refused(readBody(request, large));
    expect(error.status).toBe(408);
    expect(error.message).toMatch(/stalled: less than 1 KB arrived in \d+ seconds/);
  });

  test("a reader that stops early gives the rest up", async () => {
    const request = trickled([
      [0, 10],
      [0, 10],
    ]);
    for await (const _ of bodyChunks(request, large)) break;
    expect(arrivalRecord(request)?.body).toMatchObject({ whole: false });
  });
});
