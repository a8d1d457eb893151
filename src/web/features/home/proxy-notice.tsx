import { useQuery } from "@tanstack/react-query";
import type { UntrustedProxy } from "#shared/features/home/contract.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { adminQuery } from "#web/admin/admin-queries.ts";
import { adminDateTime } from "#web/admin/date-time.ts";

// Requests reach the site through a reverse proxy the server was not told to trust: each
// visitor then looks like the proxy. Only whoever runs the server can fix it (TRUSTED_PROXIES
// and a restart), so the notice says exactly what to set, on the home and in Settings.

/** What is wrong and what to set, in one paragraph. */
function proxyAdvice({ peer, seenAt }: UntrustedProxy): string {
  return `Visitors reach this site through a reverse proxy at ${peer} (first seen ${adminDateTime(seenAt)}), but the server was not told to trust it: every visitor looks like ${peer}, so they all share one sign-in limit and one limit on saved results, and are counted as one visitor. Whoever runs the server should set TRUSTED_PROXIES=${peer} in its settings (for systemd, the Environment lines of cam-guide.service) and restart it; docs/deploy.md shows where.`;
}

/**
 * The notice itself; nothing while no such request arrived since the server started. Its
 * heading is one level below the section's (`level`: 3 on the home, 2 in Settings).
 */
export function ProxyNotice({ proxy, level = 3 }: { proxy: UntrustedProxy | null; level?: 2 | 3 }) {
  if (!proxy) return null;
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section className="home-attention" aria-labelledby="proxy-notice-heading">
      <Heading id="proxy-notice-heading">Every visitor looks like the same address</Heading>
      <p>{proxyAdvice(proxy)}</p>
    </section>
  );
}

/** The notice where the home's answer is not loaded already (Settings). */
export function ProxyNoticeFromHome() {
  const home = useQuery({ ...adminQuery(adminApi.home), staleTime: 0 });
  return <ProxyNotice proxy={home.data?.proxy ?? null} level={2} />;
}
