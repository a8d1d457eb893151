// The browser journeys check links against a server they start on 127.0.0.1. The link checker
// reaches no loopback address on a real site; scripts/e2e-server.ts opens exactly one port of
// it, for one reserved name, through CAM_GUIDE_TEST_LOOPBACK_LINK_PORT (docs/security.md,
// "Outbound requests: the link checker"). The port follows from the server's own, so each
// engineer's servers (E2E_PORT) get their own.

/** The one loopback port the e2e server on `serverPort` lets its link checker reach. */
export function loopbackLinkPort(serverPort: number): number {
  return serverPort + 20_000;
}

/** The name the link checker reaches that port through. */
export const LOOPBACK_LINK_HOST = "loopback.cam-guide-tests.example.com";
