// The analytics CSV read back by a strict RFC 4180 reader: every field comes back as written
// (a defused formula with its leading '), and no cell starts a formula in a spreadsheet.
import { describe, expect, test } from "bun:test";
import { readCsv } from "#tests/support/csv.ts";
import { csvField } from "./reads.ts";

/** What a spreadsheet would evaluate: a cell whose first character (after spaces or control characters an import may trim) starts a formula. */
const STARTS_FORMULA = /^(?:[\t\r\n\0]|[\p{White_Space}\p{Cc}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

const PIECES = [
  ..."abcXYZ019 ._",
  ...",;\"'\t\r\n\0",
  ..."=+-@",
  "\uFF1D",
  "\uFF0B",
  "\uFF0D",
  "\uFF20",
  "\u00A0",
  "\u2003",
  "\u0085",
  "é",
  "💶",
  '=HYPERLINK("http://evil.example")',
  "=cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "\r\n",
  '""',
  "DDE(",
];

function randomText(): string {
  const length = Math.floor(Math.random() * 8);
  let text = "";
  for (let i = 0; i < length; i++) text += PIECES[Math.floor(Math.random() * PIECES.length)];
  return text;
}

const line = (fields: (string | number)[]) => `${fields.map(csvField).join(",")}\r\n`;
const defused = (value: string | number) =>
  typeof value === "string" && STARTS_FORMULA.test(value) ? `'${value}` : String(value);

describe("CSV fields read back by a strict reader", () => {
  test("10,000 random rows round-trip, and no cell starts a formula", () => {
    for (let run = 0; run < 10_000; run++) {
      const fields: (string | number)[] = Array.from({ length: 1 + Math.floor(Math.random() * 5) }, () =>
        Math.random() < 0.2 ? Math.floor(Math.random() * 1e6) : randomText(),
      );
      const text = line(fields);
      const records = readCsv(text);
      expect([fields, records]).toEqual([fields, [fields.map(defused)]]);
      for (const cell of records[0]!) expect([cell, STARTS_FORMULA.test(cell)]).toEqual([cell, false]);
    }
  });

  test("a field holding either separator, a quote, a tab or a line break is quoted whole", () => {
    for (const value of ["a,b", "a;b", 'say "hi"', "a\tb", "a\nb", "a\r\nb", " edge", "edge ", ";=1+1"]) {
      const field = csvField(value);
      expect([value, field.startsWith('"') && field.endsWith('"')]).toEqual([value, true]);
      // Split at either separator outside quotes, the field is still one piece.
      expect(field.replace(/"(?:[^"]|"")*"/g, "").match(/[,;]/)).toBeNull();
    }
  });

  test.each([
    ["=1+1", `"'=1+1"`],
    ["+1", `"'+1"`],
    ["-2+3", `"'-2+3"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["\t=1", `"'\t=1"`],
    ["\r=1", `"'\r=1"`],
    ["\n", `"'\n"`],
    [" =1", `"' =1"`],
    ["\u00A0-1", `"'\u00A0-1"`],
    ["\uFF1D1+1", `"'\uFF1D1+1"`],
    ["\uFF20SUM", `"'\uFF20SUM"`],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ["plain", "plain"],
    ["google.com", "google.com"],
    ["2024-05-01", "2024-05-01"],
    ["a-b", "a-b"],
    ["", ""],
    [12, "12"],
  ])("%p is written %p", (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});
