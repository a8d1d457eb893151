import { useSyncExternalStore } from "react";
import { DISCREET_ICON, DISCREET_STORAGE_KEY, DISCREET_TITLE, SITE_ICON } from "#web/theme-script.ts";

// Discreet mode (docs/product.md#discreet-mode): a plain tab title and icon, no sponsor banner,
// kept on this device in local storage. The inline head script applies a stored choice before
// first paint by marking <html data-discreet>; this module reads and changes that mark.

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function isDiscreet(): boolean {
  return document.documentElement.hasAttribute("data-discreet");
}

/** Shows the page as discreet mode says, without storing anything. */
export function applyDiscreet(on: boolean): void {
  document.documentElement.toggleAttribute("data-discreet", on);
  document.querySelector('link[rel="icon"]')?.setAttribute("href", on ? DISCREET_ICON : SITE_ICON);
  for (const listener of listeners) listener();
}

/** Turns discreet mode on or off and keeps the choice on this device. */
export function setDiscreet(on: boolean): void {
  try {
    if (on) localStorage.setItem(DISCREET_STORAGE_KEY, "on");
    else localStorage.removeItem(DISCREET_STORAGE_KEY);
  } catch {
    // Storage can be blocked (private mode); the choice then lasts for this page view.
  }
  applyDiscreet(on);
}

/** Whether discreet mode is on; false while the server renders and while the page hydrates. */
export function useDiscreet(): boolean {
  return useSyncExternalStore(subscribe, isDiscreet, () => false);
}

const inBrowser = () => typeof document !== "undefined" && isDiscreet();

/**
 * The tab title to show. While hydrating it already answers from the page: the head script has
 * rewritten the server's title by then, so both agree and the real title never shows.
 */
export function useTabTitle(title: string): string {
  return useSyncExternalStore(subscribe, inBrowser, inBrowser) ? DISCREET_TITLE : title;
}
