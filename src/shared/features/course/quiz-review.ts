import { QUIZ_QUESTIONS_PER_MODULE } from "./constants.ts";
import type { ModuleQuizQuestion } from "./contract.ts";

// Reviewing a finished module quiz and retrying the questions missed
// (docs/product.md#module-quiz). Questions are counted from 0 here; the address writes
// them from 1 (a1..a5 for the answers, `retry` for the questions asked again).

export type Answer = ModuleQuizQuestion["correctAnswer"];

/** The questions answered wrongly or not at all, in order. */
export function missedQuestions(questions: ModuleQuizQuestion[], answers: (Answer | null)[]): number[] {
  return questions.flatMap((q, i) => (answers[i] === q.correctAnswer ? [] : [i]));
}

/** How many of `asked` (all questions when not given) are answered right. */
export function rightCount(
  questions: ModuleQuizQuestion[],
  answers: (Answer | null)[],
  asked: number[] = questions.map((_, i) => i),
): number {
  return asked.filter((i) => questions[i] !== undefined && answers[i] === questions[i]!.correctAnswer).length;
}

/**
 * The `retry` value of a module page's address as the page reads it: the numbers of the
 * questions asked again, each 1 to the most a quiz has, once and in order ("24"); anything
 * else reads as none.
 */
export function canonicalRetry(value: string): string | null {
  if (!/^[1-9]{1,9}$/.test(value)) return null;
  const numbers = [...new Set(value.split("").map(Number))].sort((a, b) => a - b);
  if (numbers.some((n) => n > QUIZ_QUESTIONS_PER_MODULE)) return null;
  return numbers.join("");
}

/**
 * The questions a retry asks, from the address: only when every other question of the quiz
 * has its answer there (those stand), else null (the whole quiz is asked).
 */
export function retryFromAddress(
  questions: ModuleQuizQuestion[],
  answers: (Answer | null)[],
  value: string | null,
): number[] | null {
  const canonical = value === null ? null : canonicalRetry(value);
  if (!canonical) return null;
  const asked = canonical
    .split("")
    .map((n) => Number(n) - 1)
    .filter((i) => i < questions.length);
  if (asked.length === 0) return null;
  const kept = questions.every((_, i) => asked.includes(i) || answers[i] !== null);
  return kept ? asked : null;
}

/**
 * The address that asks the missed questions again without scripts: the answers that
 * were right stay in it, the missed ones are left out and named in `retry`. Null when
 * nothing was missed.
 */
export function retryAddress(
  moduleId: number,
  questions: ModuleQuizQuestion[],
  answers: (Answer | null)[],
  answerNames: string[],
): string | null {
  const missed = missedQuestions(questions, answers);
  if (missed.length === 0) return null;
  const search = new URLSearchParams({ quiz: "true" });
  questions.forEach((_, i) => {
    const answer = answers[i];
    if (!missed.includes(i) && answer && answerNames[i]) search.append(answerNames[i]!, answer);
  });
  search.append("retry", missed.map((i) => i + 1).join(""));
  return `/learn/${moduleId}?${search}`;
}

/**
 * The options of one question in a new order for an attempt: a random order, never the one
 * the previous attempt showed (when there was one and more than one option), so that a
 * retry right after the answers were revealed cannot be passed by position alone.
 */
export function shuffledOptions<T>(ids: readonly T[], previous: readonly T[] | null, random = Math.random): T[] {
  for (;;) {
    const order = [...ids];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const same = previous !== null && order.every((id, i) => id === previous[i]);
    if (!same || ids.length < 2) return order;
  }
}
