// The UTC day, YYYY-MM-DD: the day analytics count under, daily limits reset on, and link
// clicks are summed by. One place for the arithmetic, so every feature agrees on a day.

const DAY_MS = 86_400_000;

/** The UTC day of `now` (default: this moment), or of `daysBefore` days before it. */
export function utcDay(now: Date = new Date(), daysBefore = 0): string {
  return new Date(now.getTime() - daysBefore * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC day `offset` days after `day` (before it when negative). */
export function addDays(day: string, offset: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`)), -offset);
}
