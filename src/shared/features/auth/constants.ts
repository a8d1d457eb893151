/** The sign-in form's two required fields and their messages; LoginInput uses the same ones. */
export const LOGIN_REQUIRED = {
  username: "Username is required",
  password: "Password is required",
} as const;

export type LoginField = keyof typeof LOGIN_REQUIRED;

/** How many recovery codes two-factor sign-in gives at a time. */
export const RECOVERY_CODE_COUNT = 10;

/** A recovery code's symbols: lower-case letters and digits without the look-alikes (0/o, 1/l/i), 31 of them. */
export const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/** A recovery code's length, without the dashes it is shown with (abcd-efgh-jkmn). */
export const RECOVERY_LENGTH = 12;

/**
 * Whether `code` has a recovery code's shape (12 of its symbols, any case, spaces and dashes
 * aside), used or not: where only the app's code can go, the admin is told what it is.
 */
export function looksLikeRecoveryCode(code: string): boolean {
  const typed = code.replace(/[\s-]+/g, "").toLowerCase();
  return typed.length === RECOVERY_LENGTH && [...typed].every((symbol) => RECOVERY_ALPHABET.includes(symbol));
}

/** Where the first code of a new set-up must come from: a recovery code cannot confirm it. */
export const RECOVERY_CODE_AT_SET_UP =
  "That is a recovery code. Setting up needs the 6-digit code your authenticator app shows now for cam-guide: recovery codes only stand in for the app once two-factor sign-in is on.";

/**
 * The code step's answer when its challenge is no longer open: it expired, a newer password
 * step replaced it, it was used, or too many wrong codes ended it.
 */
export const CHALLENGE_ENDED =
  "Your sign-in took too long or was started again. Enter your username and password again.";

/**
 * Why a sign-in sent without JavaScript came back to the page: the page's address carries
 * only this code (and a wait in seconds), never anything the visitor typed.
 */
export const LOGIN_FAILURE = {
  missing: "missing",
  credentials: "credentials",
  throttled: "throttled",
  /** The code step: the code was not right. */
  code: "code",
  /** The code step came too late, was used or replaced (or had no password first): sign in again. */
  expired: "expired",
} as const;

export type LoginFailure = (typeof LOGIN_FAILURE)[keyof typeof LOGIN_FAILURE];

/**
 * A wait for people: "45 seconds", "1 minute", "15 minutes". Minutes are rounded up, but not
 * for the few seconds a request takes: a 15-minute hold asked about a moment in is 900 s and a
 * fraction, which reads "15 minutes", not "16".
 */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.max(1, Math.ceil((seconds - 5) / 60));
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The message the sign-in page shows for a failure code, or null for anything else. */
export function loginFailureMessage(code: string | null, wait: string | null): string | null {
  switch (code) {
    case LOGIN_FAILURE.missing:
      return "Enter your username and password.";
    case LOGIN_FAILURE.credentials:
      return "Invalid username or password";
    case LOGIN_FAILURE.throttled: {
      const seconds = /^\d{1,6}$/.test(wait ?? "") ? Number(wait) : 0;
      return seconds > 0
        ? `Too many failed sign-in attempts. Try again in ${waitText(seconds)}.`
        : "Too many failed sign-in attempts. Try again later.";
    }
    case LOGIN_FAILURE.code:
      return "That code is not right. Try again.";
    case LOGIN_FAILURE.expired:
      return CHALLENGE_ENDED;
    default:
      return null;
  }
}

/**
 * The admin API's two mounts, both behind the admin guard: a 401 from either means the
 * admin's session is over (ended elsewhere, expired), never a wrong answer to a question.
 */
export const ADMIN_MOUNTS = { api: "/api/admin", upload: "/api/upload" } as const;

/** The sign-in page's address when a session ended under the admin's hands: it says so. */
export const SESSION_ENDED_LOGIN = "/admin-login?session=ended";

/** What the sign-in page says when the admin arrives because their session ended. */
export const SESSION_ENDED_NOTICE = "Your session ended. Sign in again.";
