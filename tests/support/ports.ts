// Ports for the servers tests start. Test files run side by side in several processes, so a
// counter per file is not enough: each port is drawn at random below the range the system
// takes outgoing connections' ports from (32768 and up on Linux), and is free when drawn.
// Another process can still take it before the server binds it: starters retry on "in use".

const LOW = 20_000;
const HIGH = 32_000;

function isFree(port: number): boolean {
  try {
    const probe = Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } });
    probe.stop(true);
    return true;
  } catch {
    return false;
  }
}

/** A port no one listens on now, for a test server on 127.0.0.1. */
export function testPort(): number {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (isFree(port)) return port;
  }
}

/** What the server says when another process took its port first (it exits 1). */
export const PORT_TAKEN = /already in use/i;
