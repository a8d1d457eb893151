/**
 * Failed sign-ins are throttled per address and per address + username.
 * After `limit` failures inside `windowMs` further attempts answer 429 until the oldest
 * failure leaves the window. Kept in memory: a restart forgets, which only helps the
 * legitimate admin.
 */
export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 15 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  private keys(ip: string, username: string): string[] {
    // The per-address key is looser so one address cannot try many user names either.
    return [`ip+user:${ip}:${username.toLowerCase()}`, `ip:${ip}`];
  }

  /** Seconds to wait, or 0 when an attempt is allowed. */
  retryAfter(ip: string, username: string): number {
    const [pair, address] = this.keys(ip, username);
    let wait = 0;
    for (const [key, limit] of [
      [pair!, this.limit],
      [address!, this.limit * 4],
    ] as const) {
      const times = this.recent(key);
      if (times.length >= limit) wait = Math.max(wait, Math.ceil((times[0]! + this.windowMs - this.now()) / 1000));
    }
    return wait;
  }

  fail(ip: string, username: string): void {
    for (const key of this.keys(ip, username)) this.failures.set(key, [...this.recent(key), this.now()]);
  }

  succeed(ip: string, username: string): void {
    this.failures.delete(this.keys(ip, username)[0]!);
  }
}
