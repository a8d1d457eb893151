import { FLAG as ADMIN_FLAG_KEY, USER as ADMIN_USER_KEY } from "#web/features/auth/admin-session.ts";
import { forgetProgress, OLD_COMPLETED_KEY, OLD_QUIZ_KEY, PROGRESS_KEY } from "#web/features/progress/store.ts";
import { DISCREET_STORAGE_KEY, THEME_STORAGE_KEY } from "#web/theme-script.ts";
import { UNFINISHED_KEYS } from "#web/ui/wizard-resume.tsx";
import { applyDiscreet } from "./discreet-mode.ts";

// Everything this site may keep in a visitor's browser, and how to remove it all
// (docs/product.md#clear-my-data). The labels name what the site itself writes; anything
// else found under this site's address is removed too and listed by its name.

type StoreKind = "local storage" | "session storage" | "cookie" | "cache" | "database";

export interface StoredItem {
  kind: StoreKind;
  name: string;
  label: string;
}

const LABELS: Record<string, string> = {
  [THEME_STORAGE_KEY]: "Your colour theme (light or dark)",
  [DISCREET_STORAGE_KEY]: "Discreet mode (a plain tab title and icon, no sponsor banner)",
  [PROGRESS_KEY]: "Your results and course progress (quiz result, estimate, lessons read, module quizzes)",
  [OLD_COMPLETED_KEY]: "Your course progress (the modules you completed)",
  [OLD_QUIZ_KEY]: "The address of your last quiz result",
  [UNFINISHED_KEYS.quiz]: "Your answers to the archetype quiz so far, until this tab is closed",
  [UNFINISHED_KEYS.earnings]: "Your answers to the earnings calculator so far, until this tab is closed",
  [ADMIN_FLAG_KEY]: "The site administrator's sign-in hint",
  [ADMIN_USER_KEY]: "The site administrator's name",
};

function labelFor(name: string): string {
  return LABELS[name] ?? `Other data saved by this site (“${name}”)`;
}

function keysOf(storage: () => Storage): string[] {
  try {
    const store = storage();
    return Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k !== null);
  } catch {
    // Storage blocked (private mode, strict settings): nothing is kept there.
    return [];
  }
}

function cookieNames(): string[] {
  // Only cookies scripts can see; the site sets none for visitors (the administrator's is HttpOnly).
  return document.cookie
    .split(";")
    .map((part) => part.split("=")[0]?.trim() ?? "")
    .filter(Boolean);
}

async function cacheNames(): Promise<string[]> {
  try {
    return "caches" in window ? await caches.keys() : [];
  } catch {
    return [];
  }
}

async function databaseNames(): Promise<string[]> {
  try {
    const list = "indexedDB" in window && indexedDB.databases ? await indexedDB.databases() : [];
    return list.map((db) => db.name).filter((n): n is string => Boolean(n));
  } catch {
    return [];
  }
}

/** What the site keeps in this browser right now, in plain words. */
export async function listSiteData(): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for (const name of keysOf(() => localStorage)) items.push({ kind: "local storage", name, label: labelFor(name) });
  for (const name of keysOf(() => sessionStorage)) items.push({ kind: "session storage", name, label: labelFor(name) });
  for (const name of cookieNames()) items.push({ kind: "cookie", name, label: `A cookie (“${name}”)` });
  for (const name of await cacheNames())
    items.push({ kind: "cache", name, label: `Saved copies of pages (“${name}”)` });
  for (const name of await databaseNames())
    items.push({ kind: "database", name, label: `A browser database (“${name}”)` });
  return items;
}

function expireCookie(name: string): void {
  const gone = `${encodeURIComponent(name)}=; Max-Age=0; SameSite=Lax`;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from some browsers visitors use.
  document.cookie = `${gone}; path=/`;
  // biome-ignore lint/suspicious/noDocumentCookie: as above.
  document.cookie = `${gone}; path=${window.location.pathname}`;
}

/**
 * Removes everything the site keeps in this browser, known to it or not, and answers what was
 * there. The page's colour theme returns to the device's setting and discreet mode turns off at once.
 */
export async function clearSiteData(): Promise<StoredItem[]> {
  const found = await listSiteData();
  for (const storage of [() => localStorage, () => sessionStorage]) {
    try {
      storage().clear();
    } catch {
      // blocked: nothing was kept there
    }
  }
  for (const name of cookieNames()) expireCookie(name);
  for (const name of await cacheNames()) await caches.delete(name).catch(() => false);
  for (const name of await databaseNames()) indexedDB.deleteDatabase(name);
  const dark = window.matchMedia?.("(prefers-color-scheme: dark)").matches;
  document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
  applyDiscreet(false);
  forgetProgress();
  return found;
}
