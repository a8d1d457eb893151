import { createContext, useContext } from "react";

/** The site's public origin (PUBLIC_URL, or the address the server was reached at). */
export const OriginContext = createContext("");

export function useOrigin(): string {
  return useContext(OriginContext);
}
