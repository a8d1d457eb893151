import { toastError } from "#web/stores/toast.ts";
import { ApiError, api } from "./query-client.ts";

// Refusals whose own sentence says what happened and when to try again: too many from this
// network (429: in a moment, or tomorrow), the site keeps no more today or cannot keep data
// now (503, 507).
const TOLD = new Set([429, 503, 507]);

/**
 * Saves a quiz or calculator result. On failure shows a toast: the server's own message
 * when it says when to try again (429, 503, 507), the given message for any other non-OK
 * answer, the unexpected-error message for anything else. Null when it failed.
 */
export async function saveResult(url: string, body: unknown, failure: string): Promise<{ id: string } | null> {
  try {
    return await api<{ id: string }>("POST", url, { json: body });
  } catch (error) {
    toastError(
      error instanceof ApiError
        ? (TOLD.has(error.status) && error.error) || failure
        : "An unexpected error occurred. Please try again.",
    );
    return null;
  }
}
