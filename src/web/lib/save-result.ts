import { toast } from "#web/stores/toast.ts";
import { ApiError, api } from "./query-client.ts";

/**
 * Saves a quiz or calculator result. On failure shows a toast: the server's own message
 * when it asks the visitor to wait (429: how long), the given message for any other
 * non-OK answer, the unexpected-error message for anything else. Null when it failed.
 */
export async function saveResult(url: string, body: unknown, failure: string): Promise<{ id: string } | null> {
  try {
    return await api<{ id: string }>("POST", url, { json: body });
  } catch (error) {
    toast({
      title: "Error",
      description:
        error instanceof ApiError
          ? (error.status === 429 && error.error) || failure
          : "An unexpected error occurred. Please try again.",
      variant: "destructive",
    });
    return null;
  }
}
