// What the browser keeps for an anonymous visitor (docs/product.md#course-progress).
export const LAST_QUIZ_KEY = "lastQuizId";

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    // Storage can be blocked (private mode, strict settings): behave as if empty.
    return fallback;
  }
}

/** The graduation gift leads to the starter kit of the visitor's last quiz. */
export function rememberQuizId(id: string): void {
  safe(() => localStorage.setItem(LAST_QUIZ_KEY, id), undefined);
}

export function lastQuizId(): string | null {
  return safe(() => localStorage.getItem(LAST_QUIZ_KEY), null);
}
