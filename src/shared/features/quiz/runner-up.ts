// What the runner-up archetype adds, one sentence each (tests/content.test.ts checks the
// file). A module of its own so only the result page's chunk carries it.
import runnerUpJson from "#content/quiz/runner-up.json" with { type: "json" };
import type { Archetype } from "./constants.ts";

/** One line per archetype on what it means when it comes second in your result. */
export const runnerUpLines = runnerUpJson as Record<Archetype, string>;
