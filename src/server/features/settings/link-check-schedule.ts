import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { LinkCheckInput, type LinkCheckSchedule } from "#shared/features/settings/link-checks.ts";
import { updateSettingsRow } from "./settings-row.ts";
import { siteSettings } from "./table.ts";

/** What runs the checks on a timer (LinkChecks). */
export interface LinkCheckTimer {
  schedule(hours: number): void;
  stop(): void;
  readonly scheduledHours: number | null;
}

export interface LinkCheckScheduleOptions {
  db: Db;
  timer: LinkCheckTimer;
  /** LINK_CHECK_INTERVAL when it is set (null: set to off); undefined when it is not set. */
  environment: number | null | undefined;
  /** The schedule when neither the environment nor Settings name one (null: none). */
  fallback: number | null;
}

/**
 * The automatic link checks' schedule: LINK_CHECK_INTERVAL when set, else the one chosen in
 * Settings (site_settings.link_check_hours: null follows the default, 0 is off), else the
 * default. Saving a new one in Settings reschedules the timer at once, without a restart.
 */
export class LinkCheckSchedules {
  private stored: number | null = null;

  constructor(private readonly options: LinkCheckScheduleOptions) {
    this.apply();
  }

  /** Reads the value saved in Settings (at start, and when another instance may have changed it) and applies it. */
  async load(): Promise<void> {
    if (this.options.environment !== undefined) return;
    const [row] = await this.options.db
      .select({ hours: siteSettings.linkCheckHours })
      .from(siteSettings)
      .where(eq(siteSettings.id, 1))
      .limit(1);
    this.stored = row?.hours ?? null;
    this.apply();
  }

  /** The schedule in effect and who set it. */
  describe(): LinkCheckSchedule {
    const { environment, fallback, timer } = this.options;
    const source = environment !== undefined ? "environment" : this.stored !== null ? "settings" : "default";
    // What the timer really runs, not what was asked for.
    return { hours: timer.scheduledHours, source, stored: this.stored, defaultHours: fallback };
  }

  /** Saves the owner's choice and applies it at once; refused while LINK_CHECK_INTERVAL decides. */
  async save(hours: number | null): Promise<LinkCheckSchedule> {
    if (this.options.environment !== undefined) {
      throw new HttpError(
        409,
        "The link-check schedule is set by LINK_CHECK_INTERVAL on the server; change it there (or unset it to choose here).",
      );
    }
    await updateSettingsRow(this.options.db, { linkCheckHours: hours });
    this.stored = hours;
    this.apply();
    return this.describe();
  }

  private apply(): void {
    const { environment, fallback, timer } = this.options;
    const hours = environment !== undefined ? environment : this.stored !== null ? this.stored : fallback;
    // Read again after any change to the settings (made here or on another instance): a
    // schedule that stays the same keeps its timer.
    if ((hours || null) === timer.scheduledHours) return;
    if (hours) timer.schedule(hours);
    else timer.stop();
  }
}

/** GET and PUT /api/admin/settings/link-checks, behind the admin guard (see app.ts). */
export function linkCheckScheduleRoutes(schedules: LinkCheckSchedules) {
  return new Elysia({ name: "link-check-schedule-admin" })
    .get("/settings/link-checks", () => schedules.describe())
    .put("/settings/link-checks", ({ body }) => schedules.save(body.hours), adminJson(LinkCheckInput));
}
