import { describe, expect, test } from "bun:test";
import { codePointName, firstInvisible } from "./invisible.ts";

/** Every code point with a property, walked over the whole range (surrogates as lone halves). */
function codePointsWith(property: RegExp): number[] {
  const found: number[] = [];
  for (let code = 0; code <= 0x10ffff; code++) if (property.test(String.fromCodePoint(code))) found.push(code);
  return found;
}

describe("the one rule for characters a reader cannot see", () => {
  test("every Default_Ignorable_Code_Point, control, format character, surrogate and noncharacter is refused, alone or inside text, in an address and in prose", () => {
    const all = codePointsWith(/[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Cs}\p{Noncharacter_Code_Point}]/u);
    expect(all.length).toBeGreaterThan(6000);
    const missed = all.filter((code) => {
      const char = String.fromCodePoint(code);
      return [char, `a${char}b`].some(
        (text) => firstInvisible(text) !== codePointName(char) || firstInvisible(text, { prose: true }) === null,
      );
    });
    expect(missed.map((code) => code.toString(16))).toEqual([]);
  });

  test.each([
    0x2800, 0x16fe4, 0xfffc, 0x1d159, 0x2028, 0x2029, 0x3164, 0x115f, 0x1160, 0xffa0, 0x17b4, 0x17b5, 0x34f, 0x180b,
    0x180f, 0xfe00, 0xfe0f, 0xe0100, 0xe01ef,
  ])("U+%s, drawn blank or ignorable, is named", (code) => {
    const char = String.fromCodePoint(code);
    expect(firstInvisible(`https://example.com/a${char}b`)).toBe(
      `U+${code.toString(16).toUpperCase().padStart(4, "0")}`,
    );
    expect(firstInvisible(`Dana${char}`, { prose: true })).not.toBeNull();
  });

  test.each([
    "https://example.com/path?q=1#top",
    "Grüße aus Köln",
    "日本語のテキスト",
    "שלום עולם",
    "مرحبا بالعالم",
    "नमस्ते दुनिया",
    "Ελληνικά",
    "e\u0301 composed by a combining accent",
    "a non-breaking\u00A0space and an ideographic\u3000space",
    "$10k+",
  ])("visible text is accepted: %s", (text) => {
    expect(firstInvisible(text)).toBeNull();
    expect(firstInvisible(text, { prose: true })).toBeNull();
  });

  test.each(["❤️", "👩🏽‍💻", "👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "5️⃣", "#️⃣", "☺︎", "🏳️‍🌈"])(
    "prose keeps an emoji's selectors and joiners (%s); an address does not",
    (emoji) => {
      expect(firstInvisible(`Loved it ${emoji}!`, { prose: true })).toBeNull();
      expect(firstInvisible(`https://example.com/${emoji}`)).not.toBeNull();
    },
  );

  test.each([
    ["a\uFE0F", "U+FE0F"],
    ["❤\uFE0F\uFE0F", "U+FE0F"],
    ["x\u200Dy", "U+200D"],
    ["👩\u200D", "U+200D"],
    ["\u200D👩", "U+200D"],
    ["🏴\u{E0067}", "U+E0067"],
    ["\u{E0067}\u{E007F}", "U+E0067"],
    ["1\u20E3\u200B", "U+200B"],
  ])("in prose, the same characters outside an emoji sequence are refused: %s", (text, name) => {
    expect(firstInvisible(text, { prose: true })).toBe(name);
  });
});
