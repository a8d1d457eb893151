// `cam-guide healthcheck`: asks the running server's /healthz (for a container's health check).
import type { Config } from "#server/env.ts";

export async function healthcheck(config: Config) {
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/healthz`, { signal: AbortSignal.timeout(3000) });
    process.exit(res.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}
