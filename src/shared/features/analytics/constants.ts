// What the site counts (docs/product.md#analytics): the names the server writes into the daily
// counts and the admin's charts read back. Plain values, shared by both sides.

/**
 * Each metric's name in analytics_daily, and what its key holds ("" when it has none).
 * Days are UTC dates (YYYY-MM-DD).
 */
export const METRICS = {
  /** Unique visitors that day (rolled up from the raw visitor rows). Key: "". */
  visitors: "visitors",
  /** Unique visitors who reached a funnel step that day (rolled up). Key: a FUNNEL_STEPS id. */
  funnel: "funnel",
  /** Page views. Key: the page's kind (its entry in the route table). */
  pageview: "pageview",
  /** Views of one blog post. Key: the post's slug. */
  postView: "post_view",
  /** Views of one course module's pages. Key: the module number ("1".."10"). */
  moduleView: "module_view",
  /** A persona quiz begun (its first answer). Key: "". */
  quizStart: "quiz_start",
  /** A persona quiz finished. Key: the archetype's id. */
  quizFinish: "quiz_finish",
  /** A saved persona result opened. Key: "". */
  resultView: "result_view",
  /** The earnings calculator finished. Key: the tier's id. */
  calculatorFinish: "calculator_finish",
  /** The starter kit opened. Key: "". */
  kitView: "kit_view",
  /** A lesson read through. Key: "<module>/<lesson>", e.g. "3/2". */
  lessonRead: "lesson_read",
  /** A module quiz finished. Key: "<module>/passed" or "<module>/failed". */
  moduleQuiz: "module_quiz",
  /** An offer card on screen. Key: the offer's id. */
  offerView: "offer_view",
  /** A managed link followed. Key: "<slug>/<placement>" (placement "" when none was given). */
  click: "click",
  /** The site a visit came from. Key: its host name. */
  referrer: "referrer",
  /** The utm_source a visit arrived with. Key: its value, trimmed and lower-cased. */
  utmSource: "utm_source",
  /** Requests from bots, never in the other numbers. Key: BOT_REASONS. */
  bot: "bot",
} as const;

export type Metric = (typeof METRICS)[keyof typeof METRICS];

/** Why a request went to the bot counter instead of the numbers. */
export const BOT_REASONS = ["user-agent", "empty-user-agent", "head", "prefetch", "over-daily-limit"] as const;

/**
 * A visitor (one hash) is counted for at most this many events a day; the rest go to the bot
 * counter as "over-daily-limit", so one script cannot fill the numbers by repeating itself.
 */
export const DAILY_EVENTS_PER_VISITOR = 300;

/**
 * The key of the referrer sites or utm_source values beyond the day's limits on new ones (for
 * everyone, and for one network): the visit is counted, its source only as "(other)".
 */
export const OTHER_KEY = "(other)";

/**
 * The key under which a metric counts the events of new visitors beyond the day's limits (for
 * one network, or for everyone): in the totals, not by page, link or visitor.
 */
export const OVER_LIMIT_KEY = "(over the limit)";

/**
 * The funnel, in order: each step's bit in a raw visitor row is 1 << its index, so a visitor
 * counts once per step per day however often they repeat it.
 */
export const FUNNEL_STEPS = [
  { id: "home", label: "Home page" },
  { id: "quiz-start", label: "Quiz started" },
  { id: "result", label: "Result viewed" },
  { id: "calculator", label: "Calculator finished" },
  { id: "starter-kit", label: "Starter kit viewed" },
  { id: "lesson", label: "First lesson read" },
  { id: "click", label: "Affiliate link clicked" },
] as const;

export type FunnelStep = (typeof FUNNEL_STEPS)[number]["id"];

/**
 * The bits a visitor must have to count at the funnel's step `index`: that step and every
 * step before it (the same day). A visitor who came in at a later step is not in the funnel,
 * so each step holds at most the visitors of the one above it.
 */
export function funnelMask(index: number): number {
  return (1 << (index + 1)) - 1;
}

/** The periods the admin's analytics page compares, in days. */
export const ANALYTICS_PERIODS = [7, 30, 90] as const;

/**
 * What the browser reports to POST /api/analytics: what the server cannot see. "pageview"
 * is a navigation inside the page (its key is the address, from which the server works out
 * the same counts as for a page it served); the others are keyed as in METRICS.
 */
export const BEACON_METRICS = [
  "pageview",
  "quiz_start",
  "lesson_read",
  "module_quiz",
  "offer_view",
] as const satisfies readonly Metric[];

/** The beacon's address. */
export const BEACON_PATH = "/api/analytics";
