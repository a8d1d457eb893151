import { expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { memoryLogger } from "#server/logger.ts";
import { errorHandler } from "./errors.ts";
import { jsonBody } from "./json-body.ts";

// Whether a body is checked by our JSON parser or by Elysia's own validation, the client
// reads the same 422: the same fields, named the same way, with the same messages.
test("our JSON parser and Elysia's validation report problems alike", async () => {
  const Body = t.Object({
    name: t.String({ minLength: 1, error: "Name is required" }),
    answers: t.Array(t.String({ pattern: "^[A-D]$" })),
    platform: t.Object({ url: t.String({ pattern: "^https://", error: "Must be a valid URL" }) }),
  });
  const app = new Elysia()
    .use(
      errorHandler({ logger: memoryLogger(), renderErrorPage: async (_r, status) => new Response(null, { status }) }),
    )
    .post("/api/ours", () => "ok", { parse: jsonBody(Body), body: Body })
    .post("/api/elysia", () => "ok", { body: Body });
  const body = JSON.stringify({ name: "", answers: ["A", "E"], platform: { url: "x" } });
  const send = (path: string) =>
    app.handle(
      new Request(`http://localhost${path}`, { method: "POST", body, headers: { "content-type": "application/json" } }),
    );
  const ours = await send("/api/ours");
  const elysia = await send("/api/elysia");
  expect([ours.status, elysia.status]).toEqual([422, 422]);
  const expected = {
    error: "Some fields are missing or invalid.",
    details: [
      { field: "name", message: "Name is required" },
      { field: "answers.1", message: "Expected string to match '^[A-D]$'" },
      { field: "platform.url", message: "Must be a valid URL" },
    ],
  };
  expect(await ours.json()).toEqual(expected);
  expect(await elysia.json()).toEqual(expected);
});
