import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { Db } from "#server/db/types.ts";
import type { Analytics } from "#server/features/analytics/counting.ts";
import { takeResult } from "#server/features/analytics/limits.ts";
import { quizResultExists } from "#server/features/quiz/service.ts";
import { formStart } from "#server/lib/form-problem-page.ts";
import { serveRead } from "#server/lib/reads.ts";
import type { ResultLimit } from "#server/lib/result-limit.ts";
import { formAnswers, formFields } from "#server/plugins/form-body.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { METRICS, OVER_LIMIT_KEY } from "#shared/features/analytics/constants.ts";
import { EARNINGS_QUESTION_COUNT, earningsAnswersDone } from "#shared/features/earnings/constants.ts";
import { EarningsResultInput } from "#shared/features/earnings/contract.ts";
import { earningsResultRead, tierProfileRead } from "#shared/features/earnings/reads.ts";
import { computeTier } from "#shared/features/earnings/tiers.ts";
import { tierProfile } from "./content.ts";
import { createEarningsResult, getEarningsResult } from "./service.ts";

const startAgain = formStart("/quiz/earnings");

/** `limit` bounds the results saved a day (per network and for everyone). */
export function earningsRoutes(db: Db, analytics?: Analytics, limit?: ResultLimit) {
  const finished = (request: Request, server: Server | null, tier: string) =>
    analytics?.track(request, server, {
      events: [{ metric: METRICS.calculatorFinish, key: tier }],
      steps: ["calculator"],
    });
  // A finish over the day's limit on saved results is counted without its tier.
  const take = (request: Request, server: Server | null) =>
    takeResult(limit, analytics, request, server, {
      events: [{ metric: METRICS.calculatorFinish, key: OVER_LIMIT_KEY }],
      steps: ["calculator"],
    });
  return (
    new Elysia({ name: "earnings" })
      .post(
        "/api/earnings/result",
        async ({ body, set, request, server }) => {
          set.status = 201;
          const saved = await createEarningsResult(db, body, take(request, server));
          await finished(request, server, saved.tier);
          return saved;
        },
        { parse: jsonBody(EarningsResultInput), body: EarningsResultInput },
      )
      // The calculator's last step without JavaScript: all the answers (and the quiz result
      // it belongs to) posted to the page's own address, saved as the script's path saves
      // them, and the browser sent to the same tier result.
      .post(
        "/quiz/earnings",
        async ({ body, set, request, server }) => {
          const form = formAnswers(
            body,
            earningsAnswersDone,
            `The calculator needs one answer (1, 2 or 3) to each of its ${EARNINGS_QUESTION_COUNT} questions.`,
            startAgain,
          );
          if (form instanceof Response) return form;
          const { answers } = form;
          // As the script does: a quiz result that is not (or no longer) saved is left out.
          const quizId = form.fields.get("quizId")?.slice(0, 64) || null;
          const quizResultId = quizId && (await quizResultExists(db, quizId)) ? quizId : null;
          const { tier, estimatedEarnings, score } = computeTier(answers);
          const saved = await createEarningsResult(
            db,
            { quizResultId, tier, estimatedEarnings, score, answers },
            take(request, server),
          );
          await finished(request, server, tier);
          set.status = 303;
          set.headers.location = `/quiz/earnings?tier=${encodeURIComponent(tier)}&id=${encodeURIComponent(saved.id)}`;
          return "";
        },
        { parse: formFields },
      )
  );
}

export const earningsReads = [
  serveRead(earningsResultRead, ({ db, now }, { id }) => getEarningsResult(db, id, now())),
  serveRead(tierProfileRead, (_, { name }) => tierProfile(name) ?? null),
];
