import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { checkSchema } from "./check.ts";
import { fieldProblems, isFieldProblems, messagesByField } from "./field-problems.ts";

const Schema = Type.Object({
  slug: Type.String({ minLength: 1, pattern: "^[a-z]+$", error: "Slug is required" }),
  platform: Type.Object({ url: Type.String({ pattern: "^https://" }) }),
  answers: Type.Array(Type.String({ pattern: "^[A-D]$" })),
});

describe("field problems", () => {
  test("one problem per field, paths with dots, the schema's own message first", () => {
    expect(checkSchema(Schema, { slug: "", platform: { url: "x" }, answers: ["A", "B", "C", "E"] })).toEqual([
      { field: "slug", message: "Slug is required" },
      { field: "platform.url", message: "Expected string to match '^https://'" },
      { field: "answers.3", message: "Expected string to match '^[A-D]$'" },
    ]);
    expect(checkSchema(Schema, { slug: "ok", platform: { url: "https://x" }, answers: [] })).toEqual([]);
  });

  test("a problem with the whole value is named (body)", () => {
    expect(fieldProblems([{ path: "", message: "Expected object" }])).toEqual([
      { field: "(body)", message: "Expected object" },
    ]);
    expect(checkSchema(Schema, null)[0]).toEqual({ field: "(body)", message: "Expected object" });
  });

  test("an `error` function says what is wrong with the value itself", () => {
    const Named = Type.Object({
      name: Type.String({
        maxLength: 3,
        error: ({ value }: { value?: unknown }) => `"${String(value)}" is longer than 3 characters`,
      }),
    });
    expect(checkSchema(Named, { name: "abcd" })).toEqual([
      { field: "name", message: '"abcd" is longer than 3 characters' },
    ]);
  });

  test("keyed by field for a form; anything else is not a list of problems", () => {
    expect(
      messagesByField([
        { field: "slug", message: "a" },
        { field: "slug", message: "b" },
        { field: "platform.url", message: "c" },
      ]),
    ).toEqual({ slug: "a", "platform.url": "c" });
    expect(isFieldProblems([{ field: "slug", message: "a" }])).toBe(true);
    for (const value of [undefined, null, { allowed: ["x"] }, [{ field: 1, message: "a" }], ["slug"]])
      expect(isFieldProblems(value)).toBe(false);
  });
});
