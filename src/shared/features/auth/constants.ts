/** The sign-in form's two required fields and their messages; LoginInput uses the same ones. */
export const LOGIN_REQUIRED = {
  username: "Username is required",
  password: "Password is required",
} as const;

export type LoginField = keyof typeof LOGIN_REQUIRED;

/** How many recovery codes two-factor sign-in gives at a time. */
export const RECOVERY_CODE_COUNT = 10;

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

/** A wait for people: "45 seconds", "1 minute", "15 minutes". */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
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
