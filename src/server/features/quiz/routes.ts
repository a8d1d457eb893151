import { Elysia, t } from "elysia";
import type { Db } from "#server/db/client.ts";
import { QuizResultInput } from "#shared/features/quiz/contract.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { createQuizResult, getQuizResult } from "./service.ts";

const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });

export function quizRoutes(db: Db) {
  return new Elysia({ name: "quiz" })
    .post(
      "/api/quiz/result",
      ({ body, set }) => {
        set.status = 201;
        return createQuizResult(db, body);
      },
      { parse: jsonBody(QuizResultInput), body: QuizResultInput },
    )
    .get("/api/quiz/result/:id", ({ params }) => getQuizResult(db, params.id), { params: IdParams });
}
