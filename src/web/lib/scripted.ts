import { useSyncExternalStore } from "react";

const noChange = () => () => {};

/**
 * False on the server and while the page hydrates (both render what works without
 * scripts), true once scripts run the page.
 */
export function useScripted(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}
