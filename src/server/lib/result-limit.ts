import type { Server } from "elysia/universal";
import type { Logger } from "#server/logger.ts";
import { HttpError } from "#server/plugins/errors.ts";
import type { ClientOf } from "./client.ts";
import { type DailyQuota, MemoryDailyQuota, secondsUntilTomorrow } from "./daily-quota.ts";
import type { QuotaAnswer, Share } from "./fair-share.ts";
import { utcDay } from "./utc-day.ts";

/**
 * The daily bound on one kind of saved result (quiz, calculator): taken just before a checked
 * result is written, so a refused or invalid body uses up nothing. Throws the refusal.
 */
export type ResultLimit = (request: Request, server: Server | null) => Promise<void>;

export interface ResultLimitOptions {
  /** What is saved, in the plural, as a visitor reads it: "quiz results". */
  what: string;
  share: Share;
  /** Where the day's counts are kept: in memory (remembering the default number of networks) unless given. */
  quota?: DailyQuota;
  client: ClientOf;
  logger: Logger;
  now?: () => Date;
}

/** How the log names each refusal: never the address. */
const REFUSED_FOR: Record<Exclude<QuotaAnswer, "ok">, string> = {
  client: "one network",
  share: "one network's share of a busy day",
  block: "one IPv6 block's share of a busy day",
  everyone: "everyone",
};

/**
 * At most `share.perClient` results a UTC day from one network while the day is quiet, a
 * shrinking share of the rest under pressure (429), and `share.daily` from everyone (503),
 * each with Retry-After until midnight UTC. Each kind of refusal is logged once a day.
 */
export function resultLimit({
  what,
  share,
  quota = new MemoryDailyQuota(share),
  client,
  logger,
  now = () => new Date(),
}: ResultLimitOptions): ResultLimit {
  let loggedDay = "";
  let logged = new Set<QuotaAnswer>();
  return async (request, server) => {
    const at = now();
    const day = utcDay(at);
    const answer = await quota.take(client(request, server).address, day);
    if (answer === "ok") return;
    if (day !== loggedDay) {
      loggedDay = day;
      logged = new Set();
    }
    if (!logged.has(answer)) {
      logged.add(answer);
      logger.warn("daily limit on saved results reached", { what, for: REFUSED_FOR[answer] });
    }
    const headers = { "retry-after": String(secondsUntilTomorrow(at)) };
    throw new HttpError(answer === "everyone" ? 503 : 429, refusal(what, answer, share), undefined, headers);
  };
}

/** What the visitor reads: which bound, and that their result was not saved. */
function refusal(what: string, answer: Exclude<QuotaAnswer, "ok">, share: Share): string {
  const busy = `So many ${what} have been saved today that the site keeps only a few more from each network`;
  switch (answer) {
    case "client":
      return `Too many ${what} were saved from your network today (the limit is ${share.perClient.toLocaleString("en-US")} a day). Yours was not saved: please try again tomorrow.`;
    case "share":
      return `${busy}, and yours has had its share. This one was not saved: please try again tomorrow.`;
    case "block":
      return `${busy} and from each block of networks a provider hands out, and the block yours belongs to has had its share. This one was not saved: please try again tomorrow.`;
    case "everyone":
      return `The site has saved as many ${what} today as it keeps in a day. Yours was not saved: please try again tomorrow.`;
  }
}
