import { useQuery } from "@tanstack/react-query";
import type { QuizResult } from "#shared/features/quiz/contract.ts";
import { API } from "#shared/paths.ts";

// A missing record arrives from the server as null (see routes.ts `optional`); on the
// client it is an error. Pages treat both as "could not load".
export function useQuizResult(id: string | null) {
  return useQuery<QuizResult | null>({ queryKey: [API.quizResult(id ?? "")], enabled: Boolean(id) });
}
