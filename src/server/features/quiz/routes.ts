import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import type { Analytics } from "#server/features/analytics/counting.ts";
import { takeResult } from "#server/features/analytics/limits.ts";
import { formStart } from "#server/lib/form-problem-page.ts";
import { serveRead } from "#server/lib/reads.ts";
import type { ResultLimit } from "#server/lib/result-limit.ts";
import { formAnswers, formFields } from "#server/plugins/form-body.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { METRICS, OVER_LIMIT_KEY } from "#shared/features/analytics/constants.ts";
import { QUIZ_QUESTION_COUNT, quizAnswersDone } from "#shared/features/quiz/constants.ts";
import { scoringTable } from "#shared/features/quiz/content.ts";
import { QuizResultInput } from "#shared/features/quiz/contract.ts";
import { archetypeProfileRead, quizResultRead } from "#shared/features/quiz/reads.ts";
import { scoreArchetype } from "#shared/features/quiz/scoring.ts";
import { archetypeProfile } from "./content.ts";
import { createQuizResult, getQuizResult } from "./service.ts";

const startAgain = formStart("/quiz");

// A finish over the day's limit on saved results, counted without its archetype.
const OVER_LIMIT = { metric: METRICS.quizFinish, key: OVER_LIMIT_KEY };

// Another site's posts never reach these routes: plugins/write-limit.ts refuses them for
// every public write, before anything is counted or read. `limit` bounds the results saved
// a day (per network and for everyone).
export function quizRoutes(db: Db, analytics?: Analytics, limit?: ResultLimit) {
  return (
    new Elysia({ name: "quiz" })
      .post(
        "/api/quiz/result",
        async ({ body, set, request, server }) => {
          set.status = 201;
          const saved = await createQuizResult(
            db,
            body,
            takeResult(limit, analytics, request, server, { events: [OVER_LIMIT], steps: [] }),
          );
          // The quiz's start was counted by the browser at its first answer.
          await analytics?.track(request, server, {
            events: [{ metric: METRICS.quizFinish, key: saved.archetype }],
            steps: [],
          });
          return saved;
        },
        { parse: jsonBody(QuizResultInput), body: QuizResultInput },
      )
      // The quiz's last step without JavaScript: the form posts all the answers to the
      // page's own address; they are scored and saved as the script's path saves them,
      // and the browser is sent to the same result page.
      .post(
        "/quiz",
        async ({ body, set, request, server }) => {
          const form = formAnswers(
            body,
            quizAnswersDone,
            `The quiz needs one answer (A, B, C or D) to each of its ${QUIZ_QUESTION_COUNT} questions.`,
            startAgain,
          );
          if (form instanceof Response) return form;
          const { answers } = form;
          const { archetype } = scoreArchetype(answers, scoringTable);
          const saved = await createQuizResult(
            db,
            { archetype, answers },
            takeResult(limit, analytics, request, server, {
              events: [{ metric: METRICS.quizStart, key: "" }, OVER_LIMIT],
              steps: ["quiz-start"],
            }),
          );
          // Without JavaScript nothing reported the start: the finished quiz was begun too.
          await analytics?.track(request, server, {
            events: [
              { metric: METRICS.quizStart, key: "" },
              { metric: METRICS.quizFinish, key: archetype },
            ],
            steps: ["quiz-start"],
          });
          set.status = 303;
          set.headers.location = `/quiz/result?archetype=${encodeURIComponent(archetype)}&id=${encodeURIComponent(saved.id)}`;
          return "";
        },
        { parse: formFields },
      )
  );
}

export const quizReads = [
  serveRead(quizResultRead, ({ db, now }, { id }) => getQuizResult(db, id, now())),
  serveRead(archetypeProfileRead, (_, { name }) => archetypeProfile(name) ?? null),
];
