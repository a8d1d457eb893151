// What the admin's analytics page reads (docs/product.md#analytics-page): one answer per
// period, with the period before it for comparison. Plain values, shared by both sides.

import { ANALYTICS_PERIODS, type FunnelStep } from "./constants.ts";

export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/** The period asked for in `?days=`: one of ANALYTICS_PERIODS, else null. */
export function readPeriod(value: string | null | undefined): AnalyticsPeriod | null {
  return ANALYTICS_PERIODS.find((days) => String(days) === value) ?? null;
}

/** The period the page shows when none is asked for. */
export const DEFAULT_PERIOD: AnalyticsPeriod = 30;

/** A count with its key (a referrer, an archetype, a tier, a bot reason...). */
export interface KeyCount {
  key: string;
  count: number;
}

export interface Total {
  id: "visitors" | "pageviews" | "quizFinishes" | "clicks";
  label: string;
  current: number;
  previous: number;
  /** Change from the previous period in percent, rounded; null when the previous period counted none. */
  change: number | null;
}

interface FunnelRow {
  id: FunnelStep;
  label: string;
  visitors: number;
  /** Share of the previous step's visitors who reached this one, in percent (one decimal); null for the first step or after an empty one. */
  conversion: number | null;
  /** Visitors of the previous step who did not reach this one; null for the first step. */
  dropOff: number | null;
}

interface OfferRow {
  id: number;
  title: string;
  /** The offer's managed link; null when it has none. */
  slug: string | null;
  views: number;
  clicks: number;
  /** Clicks per view in percent (one decimal); null without views. */
  ctr: number | null;
}

export interface ModuleRow {
  module: number;
  views: number;
  lessonsRead: number;
  quizPassed: number;
  quizFailed: number;
}

export interface AnalyticsReport {
  days: AnalyticsPeriod;
  /** The period: first and last UTC day (YYYY-MM-DD), the last one today. */
  from: string;
  to: string;
  /** The period before it, as long. */
  previousFrom: string;
  previousTo: string;
  /** Nothing counted in either period. */
  empty: boolean;
  /**
   * The days of the period on which new visitors went over the daily limits (one network's
   * or everyone's): their events are in the totals, under "(over the limit)", not by page,
   * link or visitor. In order.
   */
  overLimitDays: string[];
  totals: Total[];
  /** Unique visitors per day of the period, with the same day of the previous period beside it. */
  visitors: { day: string; count: number; previousDay: string; previous: number }[];
  funnel: FunnelRow[];
  offers: OfferRow[];
  /** Clicks per link, per placement, and per link and placement, most first. */
  links: KeyCount[];
  placements: KeyCount[];
  clicks: { slug: string; placement: string; count: number }[];
  posts: { slug: string; title: string; views: number }[];
  modules: ModuleRow[];
  referrers: KeyCount[];
  utmSources: KeyCount[];
  quizFinishes: KeyCount[];
  calculatorFinishes: KeyCount[];
  bots: {
    reasons: KeyCount[];
    bots: number;
    /** Page views by people. */
    humans: number;
    /** Bots' share of all counted requests, in percent (one decimal); null when none. */
    share: number | null;
  };
}
