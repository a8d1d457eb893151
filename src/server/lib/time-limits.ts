// How long the server waits for a client, and how long a client waits for the server. One
// number, Bun's idle timeout, decides the others, so every answer starts before Bun would
// drop the connection without one (docs/decisions/052-connections-timeouts-and-slow-clients.md).

/**
 * Bun's idle timeout (Bun.serve `idleTimeout`), in seconds. Bun closes a connection, without
 * an answer, when a request without a body has not been answered this long after it arrived
 * (in 4-second steps: 30 closes after 30 to 34 s), when a body brings less than 16 KiB per
 * second over this long, and when a kept-alive connection stays idle this long.
 */
export const IDLE_TIMEOUT_SECONDS = 30;

/** Bodies of at most this size (what a visitor may send) must arrive whole within a deadline; larger ones must keep moving. */
export const SMALL_BODY_BYTES = 16 * 1024;

export interface TimeLimits {
  /** Bun's idle timeout, in seconds. */
  idleSeconds: number;
  /** Every request is answered this long after it arrived (or after its body did), or told it took too long (503). */
  answerWithinMs: number;
  /** A small body arrives whole this long after its request arrived, or the request is answered 408. */
  smallBodyWithinMs: number;
  /** A larger body brings at least `steadyBytes` in every `steadyWindowMs`, or the request is answered 408. */
  steadyBytes: number;
  steadyWindowMs: number;
  /** How long a kept-alive connection may stay open after its last answer (Bun's timeout, its 4 s step and a margin). */
  keepAliveMs: number;
}

/**
 * The limits for an idle timeout of `idleSeconds` (30 in production; the adversarial tests
 * start the executable with a shorter one): answers within two thirds of it, small bodies
 * within a third, larger bodies 64 KiB per idle timeout at least.
 */
export function timeLimits(idleSeconds = IDLE_TIMEOUT_SECONDS): TimeLimits {
  return {
    idleSeconds,
    answerWithinMs: Math.round((idleSeconds * 2000) / 3),
    smallBodyWithinMs: Math.round((idleSeconds * 1000) / 3),
    steadyBytes: 64 * 1024,
    steadyWindowMs: idleSeconds * 1000,
    keepAliveMs: (idleSeconds + 5) * 1000,
  };
}
