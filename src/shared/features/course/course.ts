import { MODULE_COUNT } from "./constants.ts";

/**
 * Progress percent of the topic viewer: the topics read, those before the open one, over
 * the topic count (0% on the first topic, before anything is read).
 */
export function topicProgress(index: number, topicCount: number): number {
  return topicCount > 0 ? Math.round((index / topicCount) * 100) : 0;
}

/** Module quiz score = round(correct / total × 100). */
export function quizScore(correct: number, total: number): number {
  return total > 0 ? Math.round((correct / total) * 100) : 0;
}

const PASS_SCORE = 60;

/**
 * The four score messages (docs/product.md#module-quiz). An attempt made after the answers were
 * revealed (a retry, or the quiz taken again on a device that has its result) shows what the
 * visitor remembers, so it is never called mastery.
 */
export function scoreMessage(score: number, { afterReveal = false }: { afterReveal?: boolean } = {}): string {
  if (afterReveal)
    return score >= 60
      ? "Well remembered. You had seen the answers before this try, so this score shows what you recall, not a first attempt."
      : "You had seen the answers before this try. Review the module, then come back to the quiz another day.";
  if (score >= 90) return "Amazing! You've mastered this module!";
  if (score >= 75) return "Great job! You've got a solid understanding!";
  if (score >= 60) return "Good effort! You're on the right track.";
  return "You might want to review this module again.";
}

export function passed(score: number): boolean {
  return score >= PASS_SCORE;
}

/** The result panel's Continue goes to the next module, or the graduation page after the last one. */
export function afterModule(moduleId: number): string {
  return moduleId >= MODULE_COUNT ? "/learn/complete" : `/learn/${moduleId + 1}`;
}

/** The module-complete skip goes to the next module, or /course-complete at the end. */
export function moduleCompleteSkip(moduleId: number): string {
  return moduleId >= MODULE_COUNT ? "/course-complete" : `/learn/${moduleId + 1}`;
}

/** A module id from the address: a whole number, else null (a non-numeric id goes back to /learn). */
export function parseModuleId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,4}$/.test(raw)) return null;
  return Number(raw);
}

/** A module's number as the site writes it: 1 to MODULE_COUNT, no leading zero. */
export function isModuleNumber(raw: string): boolean {
  return /^[1-9]\d*$/.test(raw) && Number(raw) <= MODULE_COUNT;
}

/** Adds a module to the completed list once, keeping it sorted. */
export function withCompleted(list: readonly number[], moduleId: number): number[] {
  return list.includes(moduleId) ? [...list] : [...list, moduleId].sort((a, b) => a - b);
}

/** The address of a module's lesson (1-based): the first one is the module's own address. */
export function lessonHref(moduleId: number, lesson: number): string {
  return lesson <= 1 ? `/learn/${moduleId}` : `/learn/${moduleId}?topic=${lesson}`;
}
