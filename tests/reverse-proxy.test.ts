// The executable behind a reverse proxy on the same machine, as docs/deploy.md sets it up:
// a tiny Bun proxy stands in for nginx or Caddy, sending each visitor's address in
// X-Forwarded-For. With TRUSTED_PROXIES naming it, each visitor is told apart (here by the
// sign-in throttle, which counts per address); without it, every visitor is the proxy, and
// the admin home says so with the line to add.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { AdminHome } from "#shared/features/home/contract.ts";
import { ensureBuilt } from "./support/binary.ts";
import { type RunningSite, startSite } from "./support/running-site.ts";
import { scratchDir } from "./support/scratch.ts";

/** What nginx does with `proxy_set_header X-Forwarded-For $remote_addr`: the visitor's own address, here named by the test. */
function reverseProxy(upstream: string) {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.set("x-forwarded-for", request.headers.get("x-test-visitor") ?? "198.51.100.1");
      headers.set("x-forwarded-proto", "https");
      headers.delete("x-test-visitor");
      return fetch(upstream + url.pathname + url.search, {
        method: request.method,
        headers,
        body: request.body,
        redirect: "manual",
        // The answer passes through as sent, still compressed, as a proxy passes it.
        decompress: false,
      });
    },
  });
}

/** A wrong password from `visitor` through the proxy: the status the site answers. */
async function wrongPassword(proxy: string, visitor: string): Promise<number> {
  const res = await fetch(`${proxy}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: PUBLIC_URL, "x-test-visitor": visitor },
    body: JSON.stringify({ username: "admin", password: "not-the-password" }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The address visitors use, as in docs/deploy.md: the browser's Origin on the sign-in form. */
const PUBLIC_URL = "https://guide.example.com";

let site: RunningSite | undefined;
let proxy: ReturnType<typeof reverseProxy> | undefined;

afterEach(async () => {
  await proxy?.stop(true);
  await site?.stop();
  site = undefined;
  proxy = undefined;
});

async function behindProxy(env: Record<string, string>) {
  ensureBuilt();
  site = await startSite(join(scratchDir("reverse-proxy"), "data"), {
    LINK_CHECK_INTERVAL: "off",
    PUBLIC_URL,
    ...env,
  });
  proxy = reverseProxy(site.url);
  return { site, proxy: `http://127.0.0.1:${proxy.port}` };
}

const homeProxy = async (site: RunningSite) =>
  ((await (await site.admin("/api/admin/home")).json()) as AdminHome).proxy;

describe("dist/cam-guide behind a reverse proxy on 127.0.0.1", () => {
  test("with TRUSTED_PROXIES=127.0.0.1 each visitor is their own address: one visitor's wrong passwords do not stop another", async () => {
    const { site, proxy } = await behindProxy({ TRUSTED_PROXIES: "127.0.0.1" });
    for (let i = 0; i < 5; i++) expect(await wrongPassword(proxy, "203.0.113.10")).toBe(401);
    expect(await wrongPassword(proxy, "203.0.113.10")).toBe(429);
    expect(await wrongPassword(proxy, "203.0.113.20")).toBe(401);
    // HTTPS is believed from the proxy that was named: answers carry Strict-Transport-Security.
    const page = await fetch(`${proxy}/`);
    expect(page.headers.get("strict-transport-security")).not.toBeNull();
    expect(await homeProxy(site)).toBeNull();
    expect(site.output()).not.toContain("is not in TRUSTED_PROXIES");
  }, 60_000);

  test("without it every visitor is 127.0.0.1: they share one throttle, and the admin home names the proxy to trust", async () => {
    const { site, proxy } = await behindProxy({});
    for (let i = 0; i < 5; i++) expect(await wrongPassword(proxy, "203.0.113.10")).toBe(401);
    // Another visitor is refused for the first one's attempts.
    expect(await wrongPassword(proxy, "203.0.113.20")).toBe(429);
    const seen = await homeProxy(site);
    expect(seen?.peer).toBe("127.0.0.1");
    expect(Math.abs(Date.now() - Date.parse(seen!.seenAt))).toBeLessThan(60_000);
    expect(site.output()).toContain("If 127.0.0.1 is your reverse proxy, set TRUSTED_PROXIES=127.0.0.1.");
  }, 60_000);
});
