import { describe, expect, test } from "bun:test";
import { waitText } from "./constants.ts";

describe("a wait said to people", () => {
  test.each([
    [1, "1 second"],
    [45, "45 seconds"],
    [60, "1 minute"],
    [61, "1 minute"],
    [66, "2 minutes"],
    [120, "2 minutes"],
    // A 15-minute hold, asked about a moment after it began: never "16 minutes".
    [900, "15 minutes"],
    [901, "15 minutes"],
    [904, "15 minutes"],
    [906, "16 minutes"],
  ])("%p seconds: %p", (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
  });
});
