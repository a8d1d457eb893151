// Which navigation link is active and where the promotional banner shows.

const BANNER_PATHS = ["/quiz/result", "/quiz/starter-kit", "/quiz/earnings"];

/** The promotional banner shows on paths containing these segments. */
export function showsPromoBanner(pathname: string): boolean {
  return BANNER_PATHS.some((p) => pathname.includes(p));
}

/** Whether a nav link is the active one: exact for '/', by section otherwise. */
export function isActivePath(current: string, href: string): boolean {
  if (href === "/") return current === "/";
  return current === href || current.startsWith(`${href}/`);
}
