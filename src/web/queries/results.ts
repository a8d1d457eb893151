import { useQuery } from "@tanstack/react-query";
import { ApiError, apiRequest } from "./client.ts";
import { toast } from "../stores/toast.ts";
import { API } from "../../shared/paths.ts";
import type { QuizResult } from "../../shared/contract/quiz.ts";
import type { EarningsResult } from "../../shared/contract/earnings.ts";
import type { RecommendedProduct } from "../../shared/contract/products.ts";

// A missing record arrives from the server as null (see routes.ts `optional`); on the
// client it is an error. Pages treat both as "could not load".

export function useQuizResult(id: string | null) {
  return useQuery<QuizResult | null>({ queryKey: [API.quizResult(id ?? "")], enabled: Boolean(id) });
}

export function useEarningsResult(id: string | null) {
  return useQuery<EarningsResult | null>({ queryKey: [API.earningsResult(id ?? "")], enabled: Boolean(id) });
}

export function useProducts(archetype: string | null) {
  return useQuery<RecommendedProduct[]>({ queryKey: [API.products(archetype ?? "")], enabled: Boolean(archetype) });
}

/**
 * Saves a quiz or calculator result. On failure shows SPEC 8's toast: the given message for
 * a non-OK answer, the unexpected-error message for anything else. Null when it failed.
 */
export async function saveResult(url: string, body: unknown, failure: string): Promise<{ id: string } | null> {
  try {
    return (await (await apiRequest("POST", url, body)).json()) as { id: string };
  } catch (error) {
    toast({
      title: "Error",
      description: error instanceof ApiError ? failure : "An unexpected error occurred. Please try again.",
      variant: "destructive",
    });
    return null;
  }
}
