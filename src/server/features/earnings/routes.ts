import { Elysia, t } from "elysia";
import type { Db } from "#server/db/client.ts";
import { EarningsResultInput } from "#shared/features/earnings/contract.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { createEarningsResult, getEarningsResult } from "./service.ts";

export function earningsRoutes(db: Db) {
  return new Elysia({ name: "earnings" })
    .post(
      "/api/earnings/result",
      ({ body, set }) => {
        set.status = 201;
        return createEarningsResult(db, body);
      },
      { parse: jsonBody(EarningsResultInput), body: EarningsResultInput },
    )
    .get("/api/earnings/result/:id", ({ params }) => getEarningsResult(db, params.id), {
      params: t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) }),
    });
}
