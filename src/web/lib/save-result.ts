import { toast } from "#web/stores/toast.ts";
import { ApiError, api } from "./query-client.ts";

/**
 * Saves a quiz or calculator result. On failure shows a toast: the given message for a
 * non-OK answer, the unexpected-error message for anything else. Null when it failed.
 */
export async function saveResult(url: string, body: unknown, failure: string): Promise<{ id: string } | null> {
  try {
    return await api<{ id: string }>("POST", url, { json: body });
  } catch (error) {
    toast({
      title: "Error",
      description: error instanceof ApiError ? failure : "An unexpected error occurred. Please try again.",
      variant: "destructive",
    });
    return null;
  }
}
