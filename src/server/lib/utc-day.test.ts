import { describe, expect, test } from "bun:test";
import { addDays, utcDay } from "./utc-day.ts";

describe("utcDay", () => {
  test("names the UTC day of each moment, asked in any order", () => {
    const moments: [string, string][] = [
      ["2026-11-29T23:59:59.999Z", "2026-11-29"],
      ["2026-11-30T00:00:00.000Z", "2026-11-30"],
      ["2026-11-29T00:00:00.000Z", "2026-11-29"],
      ["2026-11-29T12:00:00.000+14:00", "2026-11-28"],
      ["1969-12-31T23:59:59.999Z", "1969-12-31"],
      ["1970-01-01T00:00:00.000Z", "1970-01-01"],
      ["2026-11-30T00:00:00.000Z", "2026-11-30"],
    ];
    for (const [moment, day] of moments) expect(utcDay(new Date(moment))).toBe(day);
  });

  test("counts days back", () => {
    const now = new Date("2026-03-01T08:00:00Z");
    expect(utcDay(now, 1)).toBe("2026-02-28");
    expect(utcDay(now)).toBe("2026-03-01");
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-03-01", -366)).toBe("2025-02-28");
  });

  test("refuses an invalid date as before", () => {
    expect(() => utcDay(new Date(Number.NaN))).toThrow(RangeError);
  });
});
