import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { getPublishedPost } from "#server/features/blog/service.ts";
import { affiliateOffers } from "#server/features/offers/table.ts";
import { quizResultExists } from "#server/features/quiz/service.ts";
import { sitePageExists } from "#server/features/site-pages/service.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { jsonBody } from "#server/plugins/json-body.ts";
import { BEACON_PATH, METRICS } from "#shared/features/analytics/constants.ts";
import { BeaconInput } from "#shared/features/analytics/contract.ts";
import { TOPICS_PER_MODULE } from "#shared/features/course/constants.ts";
import { isModuleNumber } from "#shared/features/course/course.ts";
import { type Analytics, type Counted, pageCounts } from "./counting.ts";

/** The beacon's body is a few short events: anything larger is refused. */
const BEACON_BODY_LIMIT = 2048;

/** A beacon event's counts, or the reason it is refused. */
async function beaconCounts(
  db: Db,
  { metric, key }: BeaconInput["events"][number],
  now: Date,
): Promise<Counted | string> {
  const [module, rest] = key.split("/");
  const moduleOk = module !== undefined && /^\d{1,2}$/.test(module) && isModuleNumber(module);
  switch (metric) {
    case METRICS.pageview: {
      if (!key.startsWith("/") || key.startsWith("//"))
        return "A page view's key is the address of a page of this site.";
      const url = new URL(key, "http://site.invalid");
      const counted = pageCounts(url.pathname, url.searchParams);
      if (!counted) return `No page of this site to count at ${url.pathname}.`;
      const check = counted.check;
      if (check && "post" in check && !(await getPublishedPost(db, check.post, now).then(Boolean, () => false)))
        return "No published post at this address.";
      if (check && "sitePage" in check && !(await sitePageExists(db, check.sitePage.slice(0, 64))))
        return "No page at this address.";
      if (check && "quizResult" in check && !(await quizResultExists(db, check.quizResult.slice(0, 64))))
        return "No saved quiz result with this id.";
      return { events: counted.events, steps: counted.steps };
    }
    case METRICS.quizStart:
      return key === "" ? { events: [{ metric, key }], steps: ["quiz-start"] } : "A quiz start has no key.";
    case METRICS.lessonRead: {
      const lesson = Number(rest);
      return moduleOk && /^\d$/.test(rest ?? "") && lesson >= 1 && lesson <= TOPICS_PER_MODULE
        ? { events: [{ metric, key: `${Number(module)}/${lesson}` }], steps: ["lesson"] }
        : `A lesson read's key is "<module>/<lesson>" (module 1 to 10, lesson 1 to ${TOPICS_PER_MODULE}).`;
    }
    case METRICS.moduleQuiz:
      return moduleOk && (rest === "passed" || rest === "failed")
        ? { events: [{ metric, key: `${Number(module)}/${rest}` }], steps: [] }
        : 'A module quiz\'s key is "<module>/passed" or "<module>/failed".';
    case METRICS.offerView: {
      if (!/^[1-9]\d{0,8}$/.test(key)) return "An offer view's key is the offer's id.";
      const [offer] = await db
        .select({ id: affiliateOffers.id })
        .from(affiliateOffers)
        .where(eq(affiliateOffers.id, Number(key)))
        .limit(1);
      return offer ? { events: [{ metric, key }], steps: [] } : "No offer with this id.";
    }
    default:
      return "Unknown metric.";
  }
}

/**
 * POST /api/analytics: what only the browser sees (docs/product.md#analytics). Another
 * site's posts are refused (403) and every client's posts are limited by the public write
 * limit before this runs. Every event is checked before any is counted: one bad event
 * refuses the whole body (422) and nothing is counted.
 */
export function analyticsRoutes(db: Db, analytics: Analytics, now: () => Date = () => new Date()) {
  return new Elysia({ name: "analytics" }).post(
    BEACON_PATH,
    async ({ body, request, server, set }) => {
      const counted: Counted = { events: [], steps: [] };
      // The same event twice in one body is one event.
      const seen = new Set<string>();
      for (const [index, event] of body.events.entries()) {
        const id = `${event.metric}\n${event.key}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const found = await beaconCounts(db, event, now());
        if (typeof found === "string")
          throw new HttpError(422, "Some fields are missing or invalid.", [
            { field: `events.${index}.key`, message: found },
          ]);
        counted.events.push(...found.events);
        counted.steps.push(...found.steps);
      }
      await analytics.track(request, server, counted);
      set.status = 204;
      return null;
    },
    { parse: jsonBody(BeaconInput, BEACON_BODY_LIMIT), body: BeaconInput },
  );
}
