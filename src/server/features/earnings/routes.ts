import { Elysia } from "elysia";
import type { Db } from "#server/db/client.ts";
import { serveRead } from "#server/lib/reads.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { EarningsResultInput } from "#shared/features/earnings/contract.ts";
import { earningsResultRead, tierProfileRead } from "#shared/features/earnings/reads.ts";
import { tierProfile } from "./content.ts";
import { createEarningsResult, getEarningsResult } from "./service.ts";

export function earningsRoutes(db: Db) {
  return new Elysia({ name: "earnings" }).post(
    "/api/earnings/result",
    ({ body, set }) => {
      set.status = 201;
      return createEarningsResult(db, body);
    },
    { parse: jsonBody(EarningsResultInput), body: EarningsResultInput },
  );
}

export const earningsReads = [
  serveRead(earningsResultRead, ({ db }, { id }) => getEarningsResult(db, id)),
  serveRead(tierProfileRead, (_, { name }) => tierProfile(name) ?? null),
];
