import { createContext, useContext } from "react";

/**
 * The site's public address (PUBLIC_URL, or the one the admin confirmed in Settings), or
 * null when none is known: links are then relative, or left out where a format needs an
 * absolute URL. Never the address a request happened to name.
 */
export const OriginContext = createContext<string | null>(null);

export function useOrigin(): string | null {
  return useContext(OriginContext);
}
