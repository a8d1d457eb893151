import { type CheckerNetwork, heldByInterface, type Interfaces } from "#server/features/links/network.ts";
import { nonPublicAddressKind } from "#shared/public-host.ts";

/** What a scripted network was asked. */
export interface NetworkLog {
  /** Every name the checker resolved, in order. */
  asked: string[];
}

/**
 * The link checker's network in a test: each name in `hosts` resolves to what the test says
 * (a list, or a function called on every question, so an answer can change between questions);
 * any other name does not resolve, so no test ever asks real DNS. An address counts as public
 * when it is in `publicAddresses` (a test server's loopback address plays a public host), else
 * the real rule judges it. `interfaces` plays this machine's network interfaces (asked at every
 * hop, so a test may change them or make the question fail); by default they hold ::1 alone, so
 * the test servers on 127.0.0.1 are other machines.
 */
export function scriptedNetwork(
  hosts: Record<string, string[] | (() => string[])>,
  publicAddresses: string[] = ["127.0.0.1"],
  interfaces: () => Interfaces = () => ({ lo: [{ address: "::1" }] }),
): CheckerNetwork & NetworkLog {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (hostname) => {
      asked.push(hostname);
      const answer = Object.hasOwn(hosts, hostname) ? hosts[hostname] : undefined;
      if (answer === undefined)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return typeof answer === "function" ? answer() : answer;
    },
    refusal: (address) => (publicAddresses.includes(address) ? null : nonPublicAddressKind(address)),
    ownAddress: (address) => heldByInterface(address, interfaces()),
  };
}
