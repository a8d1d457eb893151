export const MODULE_COUNT = 10;
/** The module ids, 1 to MODULE_COUNT in order. */
export const MODULE_IDS = Array.from({ length: MODULE_COUNT }, (_, i) => i + 1);
export const TOPICS_PER_MODULE = 5;
export const QUIZ_QUESTIONS_PER_MODULE = 5;
/** Shown when a module-topic pair has no pro tip of its own. */
export const DEFAULT_PRO_TIP = "Most successful cam models completed this entire course.";
