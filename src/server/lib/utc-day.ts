// The UTC day, YYYY-MM-DD: the day analytics count under, daily limits reset on, and link
// clicks are summed by. One place for the arithmetic, so every feature agrees on a day.

const DAY_MS = 86_400_000;

// The last day asked for, as a day number and its text: every counted page view asks for
// today, and formatting a date each time was a tenth of serving a cached page.
let last = { day: Number.NaN, text: "" };

/** The UTC day of `now` (default: this moment), or of `daysBefore` days before it. */
export function utcDay(now: Date = new Date(), daysBefore = 0): string {
  const time = now.getTime() - daysBefore * DAY_MS;
  const day = Math.floor(time / DAY_MS);
  if (day !== last.day) last = { day, text: new Date(time).toISOString().slice(0, 10) };
  return last.text;
}

/** The UTC day `offset` days after `day` (before it when negative). */
export function addDays(day: string, offset: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`)), -offset);
}
