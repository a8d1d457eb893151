import { MODULE_COUNT, MODULE_IDS, TOPICS_PER_MODULE } from "#shared/features/course/constants.ts";
import { lessonHref } from "#shared/features/course/course.ts";
import { TIERS, type TierName } from "#shared/features/earnings/constants.ts";
import { type Archetype, isArchetype, LETTERS, type Letter } from "#shared/features/quiz/constants.ts";

// What the site remembers for a visitor, in their browser only (docs/product.md#course-progress):
// the last persona result, the last earnings estimate and the course progress. Plain data with no
// methods, so the same value is stored, carried in a resume code and read back through `normalise`.

/** A module quiz as last finished: the letter chosen for each question, in order. */
export interface ModuleQuizRecord {
  correct: number;
  total: number;
  answers: Letter[];
}

export interface Progress {
  /** The last persona quiz result kept on this device (its saved result's id and archetype). */
  quiz: { id: string; archetype: Archetype | null } | null;
  /** The last earnings estimate (its saved result's id and tier). */
  earnings: { id: string; tier: TierName } | null;
  /** Lessons read through, by module: lesson numbers 1 to 5, sorted. */
  read: Record<number, number[]>;
  /** Modules whose quiz was finished, sorted. */
  completed: number[];
  /** Each module's last finished quiz. */
  quizzes: Record<number, ModuleQuizRecord>;
  /** The lesson opened last: where "Continue where you left off" goes. */
  last: { module: number; lesson: number } | null;
}

export const EMPTY_PROGRESS: Progress = {
  quiz: null,
  earnings: null,
  read: {},
  completed: [],
  quizzes: {},
  last: null,
};

const RESULT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const isModule = (n: unknown): n is number =>
  Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MODULE_COUNT;
const isLesson = (n: unknown): n is number =>
  Number.isInteger(n) && (n as number) >= 1 && (n as number) <= TOPICS_PER_MODULE;
const isTier = (name: unknown): name is TierName => TIERS.some((tier) => tier.name === name);
const isLetter = (value: unknown): value is Letter => (LETTERS as readonly unknown[]).includes(value);
const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const sortedUnique = (list: number[]) => [...new Set(list)].sort((a, b) => a - b);

/**
 * Any stored or imported value as a Progress: what is valid is kept, anything else is
 * dropped (storage can hold an older shape, another tab's half-written value, or a
 * hand-edited resume code).
 */
export function normalise(raw: unknown): Progress {
  const value = record(raw);
  if (!value) return EMPTY_PROGRESS;
  const quiz = record(value.quiz);
  const earnings = record(value.earnings);
  const last = record(value.last);
  const read: Record<number, number[]> = {};
  for (const [key, lessons] of Object.entries(record(value.read) ?? {})) {
    const list = Array.isArray(lessons) ? sortedUnique(lessons.filter(isLesson)) : [];
    if (isModule(Number(key)) && list.length > 0) read[Number(key)] = list;
  }
  const quizzes: Record<number, ModuleQuizRecord> = {};
  for (const [key, entry] of Object.entries(record(value.quizzes) ?? {})) {
    const q = record(entry);
    if (!q || !isModule(Number(key))) continue;
    const answers = Array.isArray(q.answers) ? q.answers.filter(isLetter) : [];
    const total = q.total;
    const correct = q.correct;
    if (!Number.isInteger(total) || (total as number) < 1 || (total as number) > 20) continue;
    if (!Number.isInteger(correct) || (correct as number) < 0 || (correct as number) > (total as number)) continue;
    quizzes[Number(key)] = {
      total: total as number,
      correct: correct as number,
      answers: answers.length === total ? answers : [],
    };
  }
  return {
    quiz:
      quiz && typeof quiz.id === "string" && RESULT_ID.test(quiz.id)
        ? {
            id: quiz.id,
            archetype: typeof quiz.archetype === "string" && isArchetype(quiz.archetype) ? quiz.archetype : null,
          }
        : null,
    earnings:
      earnings && typeof earnings.id === "string" && RESULT_ID.test(earnings.id) && isTier(earnings.tier)
        ? { id: earnings.id, tier: earnings.tier }
        : null,
    read,
    completed: Array.isArray(value.completed) ? sortedUnique(value.completed.filter(isModule)) : [],
    quizzes,
    last: last && isModule(last.module) && isLesson(last.lesson) ? { module: last.module, lesson: last.lesson } : null,
  };
}

/** True when nothing is remembered. */
export function isEmpty(progress: Progress): boolean {
  return (
    !progress.quiz &&
    !progress.earnings &&
    Object.keys(progress.read).length === 0 &&
    progress.completed.length === 0 &&
    Object.keys(progress.quizzes).length === 0 &&
    !progress.last
  );
}

/** The number of lessons read through, over the whole course. */
export function lessonsReadCount(progress: Progress): number {
  return Object.values(progress.read).reduce((sum, lessons) => sum + lessons.length, 0);
}

export function isLessonRead(progress: Progress, module: number, lesson: number): boolean {
  return progress.read[module]?.includes(lesson) ?? false;
}

export function withLessonRead(progress: Progress, module: number, lesson: number): Progress {
  if (!isModule(module) || !isLesson(lesson) || isLessonRead(progress, module, lesson)) return progress;
  return {
    ...progress,
    read: { ...progress.read, [module]: sortedUnique([...(progress.read[module] ?? []), lesson]) },
  };
}

export function withLastLesson(progress: Progress, module: number, lesson: number): Progress {
  if (!isModule(module) || !isLesson(lesson)) return progress;
  if (progress.last?.module === module && progress.last.lesson === lesson) return progress;
  return { ...progress, last: { module, lesson } };
}

export function withModuleQuiz(progress: Progress, module: number, quiz: ModuleQuizRecord): Progress {
  if (!isModule(module)) return progress;
  return {
    ...progress,
    completed: sortedUnique([...progress.completed, module]),
    quizzes: { ...progress.quizzes, [module]: quiz },
  };
}

/** Where the course goes on for this visitor: a lesson, a module's quiz, or the end. */
export type NextStep =
  | { kind: "start"; module: 1; lesson: 1; href: string }
  | { kind: "lesson"; module: number; lesson: number; href: string }
  | { kind: "quiz"; module: number; href: string }
  | { kind: "done"; href: string };

/** Every step of the course in order: each module's five lessons, then its quiz. */
const COURSE_STEPS: { module: number; lesson: number | null }[] = MODULE_IDS.flatMap((module) => [
  ...Array.from({ length: TOPICS_PER_MODULE }, (_, i) => ({ module, lesson: i + 1 })),
  { module, lesson: null },
]);

/**
 * "Continue where you left off": the lesson opened last while it is not read through;
 * else the next step after it that is still open (a lesson not read, or the quiz of a module
 * not finished), going forward through the course and only then round to the steps before
 * it. A module whose quiz is finished is passed over. Every module finished goes to the
 * graduation page; nothing remembered starts the course.
 */
export function nextStep(progress: Progress): NextStep {
  const { last } = progress;
  const done = (module: number) => progress.completed.includes(module);
  if (last && !isLessonRead(progress, last.module, last.lesson) && !done(last.module))
    return { kind: "lesson", module: last.module, lesson: last.lesson, href: lessonHref(last.module, last.lesson) };
  if (isEmpty({ ...progress, quiz: null, earnings: null }))
    return { kind: "start", module: 1, lesson: 1, href: "/learn/1" };
  const from = last ? COURSE_STEPS.findIndex((s) => s.module === last.module && s.lesson === last.lesson) + 1 : 0;
  for (let i = 0; i < COURSE_STEPS.length; i++) {
    const { module, lesson } = COURSE_STEPS[(from + i) % COURSE_STEPS.length]!;
    if (done(module)) continue;
    if (lesson === null) return { kind: "quiz", module, href: `/learn/${module}?quiz=true` };
    if (!isLessonRead(progress, module, lesson))
      return { kind: "lesson", module, lesson, href: lessonHref(module, lesson) };
  }
  return { kind: "done", href: "/learn/complete" };
}
