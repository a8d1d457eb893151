import type { Server } from "elysia/universal";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { ClientOf } from "./client.ts";
import { DailyQuota, type QuotaAnswer, secondsUntilTomorrow, utcDate } from "./daily-quota.ts";

/**
 * The daily bound on one kind of saved result (quiz, calculator): taken just before a checked
 * result is written, so a refused or invalid body uses up nothing. Throws the refusal.
 */
export type ResultLimit = (request: Request, server: Server | null) => void;

export interface ResultLimitOptions {
  /** What is saved, in the plural, as a visitor reads it: "quiz results". */
  what: string;
  perClient: number;
  daily: number;
  maxClients?: number;
  client: ClientOf;
  logger: Logger;
  now?: () => Date;
}

/**
 * At most `perClient` results a UTC day from one network (429) and `daily` from everyone
 * (503), each with Retry-After until midnight UTC. Reaching a limit is logged once a day.
 */
export function resultLimit({
  what,
  perClient,
  daily,
  maxClients,
  client,
  logger,
  now = () => new Date(),
}: ResultLimitOptions): ResultLimit {
  const quota = new DailyQuota(perClient, daily, maxClients);
  let loggedDay = "";
  let logged = new Set<QuotaAnswer>();
  return (request, server) => {
    const at = now();
    const day = utcDate(at);
    const answer = quota.take(client(request, server).address, day);
    if (answer === "ok") return;
    if (day !== loggedDay) {
      loggedDay = day;
      logged = new Set();
    }
    if (!logged.has(answer)) {
      logged.add(answer);
      logger.warn("daily limit on saved results reached", {
        what,
        for: answer === "client" ? "one network" : "everyone",
      });
    }
    const headers = { "retry-after": String(secondsUntilTomorrow(at)) };
    if (answer === "client")
      throw new HttpError(
        429,
        `Too many ${what} were saved from your network today (the limit is ${perClient.toLocaleString("en-US")} a day). Yours was not saved: please try again tomorrow.`,
        undefined,
        headers,
      );
    throw new HttpError(
      503,
      `The site has saved as many ${what} today as it keeps in a day. Yours was not saved: please try again tomorrow.`,
      undefined,
      headers,
    );
  };
}
