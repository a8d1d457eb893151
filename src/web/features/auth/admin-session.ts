// The admin session flag: a local flag set on login and cleared on logout, so the dashboard
// does not bounce to the login page while the server check is still running.
export const FLAG = "adminLoggedIn";
export const USER = "adminUser";

export function hasAdminFlag(): boolean {
  try {
    return localStorage.getItem(FLAG) === "true";
  } catch {
    return false;
  }
}

export function setAdminFlag(user: unknown): void {
  try {
    localStorage.setItem(FLAG, "true");
    localStorage.setItem(USER, JSON.stringify(user));
  } catch {
    // Storage blocked: the server session still works; only the no-bounce hint is lost.
  }
}

export function clearAdminFlag(): void {
  try {
    localStorage.removeItem(FLAG);
    localStorage.removeItem(USER);
  } catch {
    // nothing to clear
  }
}

/** The username this browser last signed in with, or "" (the sign-in dialog fills it in). */
export function adminUsername(): string {
  try {
    const user: unknown = JSON.parse(localStorage.getItem(USER) ?? "null");
    const name = user && typeof user === "object" ? (user as { username?: unknown }).username : undefined;
    return typeof name === "string" ? name : "";
  } catch {
    return "";
  }
}
