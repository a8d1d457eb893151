// What one network may hold of the server at once. Bun tells nothing about connections, only
// about requests and the address and port they came from; these two ledgers are kept from that.

/** Requests one client (an IPv4 address, an IPv6 /64) may have open at once, from arrival until answered. */
export const MAX_OPEN_PER_CLIENT = 64;
/** Connections one peer may keep open between requests; past this, its answers close their connection. */
const MAX_KEPT_PER_PEER = 64;
/** Peers followed at once; a flood of new ones beyond this is not followed (their connections still time out). */
const MAX_PEERS = 10_000;

/** Open requests per client. A client at its limit is refused until one of them is answered. */
export class ClientSlots {
  private readonly open = new Map<string, number>();
  /** Set once the server is stopping: no request starts any more (see `closeAndDrain`). */
  closed = false;

  constructor(private readonly max = MAX_OPEN_PER_CLIENT) {}

  /** Takes a slot for `key`; false when it holds `max` already. */
  take(key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) return false;
    this.open.set(key, count + 1);
    return true;
  }

  release(key: string): void {
    const count = this.open.get(key) ?? 0;
    if (count <= 1) this.open.delete(key);
    else this.open.set(key, count - 1);
  }

  count(key: string): number {
    return this.open.get(key) ?? 0;
  }

  /** Clients with an open request (bounded by the open requests themselves). */
  get size(): number {
    return this.open.size;
  }

  /**
   * No request starts from now on, and those already started are waited for (at most
   * `withinMs`): the database may close once this resolves. A request still queued behind
   * the others is refused at the door, never left to find the database closed.
   */
  async closeAndDrain(withinMs: number): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + withinMs;
    while (this.open.size > 0 && Date.now() < deadline) await Bun.sleep(10);
  }
}

interface Kept {
  /** Requests in flight on this connection (one, unless the client pipelines). */
  busy: number;
  /** When Bun will have closed it if no request comes (an idle connection lives one idle timeout). */
  until: number;
}

/**
 * A connection idle this long, at a peer that opens a new one while at its limit, is taken to
 * be one the peer let go: a client reuses a kept connection at once, and Bun says nothing when
 * one closes. Without this, a peer that closed its connections and opened as many new ones (a
 * benchmark's second run, an office behind one address after a quiet spell) had every answer
 * for one idle timeout close its connection, and each closing connection under load held the
 * server's memory (hundreds of MB) until it was idle again.
 */
const LET_GO_AFTER_MS = 500;
/** Ports taken as let go remembered per peer (the oldest forgotten first). */
const LET_GO_KEPT = 4 * MAX_KEPT_PER_PEER;

/**
 * Connections per peer, known by their source ports: a port is open while it has a request
 * in flight and for one idle timeout after its last answer (Bun closes an idle connection
 * then), unless that answer closed it. A peer holding `max` connections gets its answers on
 * any further connection with Connection: close. Once it is at its limit, the connection it
 * left idle longest, for LET_GO_AFTER_MS at least, is taken as let go and makes room for the
 * new one; if it was in fact still open and sends again, its answer closes it. So a peer never
 * uses more than `max` at once; connections it opens and leaves idle are closed by Bun's idle
 * timeout, as are connections that never send a request.
 */
export class KeptConnections {
  private readonly peers = new Map<string, Map<number, Kept>>();
  /** Ports of each peer taken as let go, and until when Bun may still hold each open. */
  private readonly letGo = new Map<string, Map<number, number>>();

  constructor(
    private readonly keepAliveMs: number,
    private readonly max = MAX_KEPT_PER_PEER,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A request arrived from `peer` on `port`: false when its connection must close after the answer. */
  begin(peer: string, port: number): boolean {
    let ports = this.peers.get(peer);
    if (!ports) {
      if (this.peers.size >= MAX_PEERS) this.sweep();
      if (this.peers.size >= MAX_PEERS) return true;
      ports = new Map();
      this.peers.set(peer, ports);
    }
    const known = ports.get(port);
    if (known) {
      known.busy++;
      known.until = Number.POSITIVE_INFINITY;
      return true;
    }
    // A connection taken as let go that sends again was still open: this answer closes it.
    const letGo = this.letGo.get(peer);
    if (letGo?.delete(port)) {
      if (letGo.size === 0) this.letGo.delete(peer);
      return false;
    }
    this.prune(ports);
    if (ports.size >= this.max) this.forgetLetGo(peer, ports);
    if (ports.size >= this.max) return false;
    ports.set(port, { busy: 1, until: Number.POSITIVE_INFINITY });
    return true;
  }

  /** The answer to a request `begin` let keep its connection is ready; `closing` when it ends the connection. */
  end(peer: string, port: number, closing: boolean): void {
    const ports = this.peers.get(peer);
    const kept = ports?.get(port);
    if (!ports || !kept) return;
    kept.busy = Math.max(0, kept.busy - 1);
    if (closing) ports.delete(port);
    else if (kept.busy === 0) kept.until = this.now() + this.keepAliveMs;
    if (ports.size === 0) this.peers.delete(peer);
  }

  /** Connections `peer` holds now, as far as this ledger knows. */
  count(peer: string): number {
    const ports = this.peers.get(peer);
    if (!ports) return 0;
    this.prune(ports);
    return ports.size;
  }

  /** Forgets every connection Bun has closed by now. */
  sweep(): void {
    for (const [peer, ports] of this.peers) {
      this.prune(ports);
      if (ports.size === 0) this.peers.delete(peer);
    }
    const now = this.now();
    for (const [peer, letGo] of this.letGo) {
      for (const [port, until] of letGo) if (until <= now) letGo.delete(port);
      if (letGo.size === 0) this.letGo.delete(peer);
    }
  }

  /** Takes the connection idle the longest as let go, when it has been idle LET_GO_AFTER_MS at least. */
  private forgetLetGo(peer: string, ports: Map<number, Kept>): void {
    let oldest: [number, Kept] | null = null;
    for (const entry of ports) if (entry[1].busy === 0 && (!oldest || entry[1].until < oldest[1].until)) oldest = entry;
    if (!oldest || this.now() - (oldest[1].until - this.keepAliveMs) < LET_GO_AFTER_MS) return;
    ports.delete(oldest[0]);
    let letGo = this.letGo.get(peer);
    if (!letGo) {
      letGo = new Map();
      this.letGo.set(peer, letGo);
    }
    letGo.set(oldest[0], oldest[1].until);
    if (letGo.size > LET_GO_KEPT) letGo.delete(letGo.keys().next().value!);
  }

  private prune(ports: Map<number, Kept>): void {
    const now = this.now();
    for (const [port, kept] of ports) if (kept.busy === 0 && kept.until <= now) ports.delete(port);
  }
}
