import { type Static, Type } from "@sinclair/typebox";

/** Hours between the automatic link checks when neither the server nor Settings say otherwise: weekly. */
export const DEFAULT_LINK_CHECK_HOURS = 168;
/** The longest schedule: a year. */
const MAX_LINK_CHECK_HOURS = 8760;

/** What Settings stores: null follows the default, 0 turns the automatic checks off. */
export const LinkCheckInput = Type.Object({
  hours: Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: MAX_LINK_CHECK_HOURS })], {
    error: `Choose how often links are checked: off (0), or every 1 to ${MAX_LINK_CHECK_HOURS} hours`,
  }),
});
export type LinkCheckInput = Static<typeof LinkCheckInput>;

/** Who decides the schedule in effect. */
type LinkCheckSource = "environment" | "settings" | "default";

/** The automatic link checks as the server runs them now. */
export interface LinkCheckSchedule {
  /** Hours between checks of each link; null: off (only "Check all links now"). */
  hours: number | null;
  source: LinkCheckSource;
  /** The value saved in Settings: null follows the default, 0 is off. */
  stored: number | null;
  /** The default's hours (null: off). */
  defaultHours: number | null;
}

/** The choices Settings offers, in hours (0: off). */
export const LINK_CHECK_CHOICES = [0, 6, 12, 24, 72, 168, 336, 720] as const;

/** "weekly", "every 6 hours", "off": how often, in words. */
export function describeLinkCheckHours(hours: number | null): string {
  if (!hours) return "off";
  if (hours === 24) return "daily";
  if (hours === 168) return "weekly";
  if (hours === 336) return "every two weeks";
  if (hours === 720) return "every 30 days";
  if (hours % 24 === 0) return `every ${hours / 24} days`;
  return hours === 1 ? "every hour" : `every ${hours} hours`;
}
