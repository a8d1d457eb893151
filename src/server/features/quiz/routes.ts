import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { serveRead } from "#server/lib/reads.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { QuizResultInput } from "#shared/features/quiz/contract.ts";
import { archetypeProfileRead, quizResultRead } from "#shared/features/quiz/reads.ts";
import { archetypeProfile } from "./content.ts";
import { createQuizResult, getQuizResult } from "./service.ts";

export function quizRoutes(db: Db) {
  return new Elysia({ name: "quiz" }).post(
    "/api/quiz/result",
    ({ body, set }) => {
      set.status = 201;
      return createQuizResult(db, body);
    },
    { parse: jsonBody(QuizResultInput), body: QuizResultInput },
  );
}

export const quizReads = [
  serveRead(quizResultRead, ({ db }, { id }) => getQuizResult(db, id)),
  serveRead(archetypeProfileRead, (_, { name }) => archetypeProfile(name) ?? null),
];
