import { Elysia, t } from "elysia";
import { memoryLogger } from "#server/logger.ts";
import { runScenarios } from "#tests/support/scenario.ts";
import { errorHandler } from "./errors.ts";
import { jsonBody } from "./json-body.ts";

// Whether a body is checked by our JSON parser or by Elysia's own validation, the client
// reads the same 422: the same fields, named the same way, with the same messages.
const Body = t.Object({
  name: t.String({ minLength: 1, error: "Name is required" }),
  answers: t.Array(t.String({ pattern: "^[A-D]$" })),
  platform: t.Object({ url: t.String({ pattern: "^https://", error: "Must be a valid URL" }) }),
});
const app = new Elysia()
  .use(errorHandler({ logger: memoryLogger(), renderErrorPage: async (_r, status) => new Response(null, { status }) }))
  .post("/api/ours", () => "ok", { parse: jsonBody(Body), body: Body })
  .post("/api/elysia", () => "ok", { body: Body });

const expected = {
  error: "Some fields are missing or invalid.",
  details: [
    { field: "name", message: "Name is required" },
    { field: "answers.1", message: "Expected string to match '^[A-D]$'" },
    { field: "platform.url", message: "Must be a valid URL" },
  ],
};

runScenarios(
  "our JSON parser and Elysia's validation report problems alike",
  ["/api/ours", "/api/elysia"].map((path) => ({
    name: path === "/api/ours" ? "our JSON parser" : "Elysia's validation",
    method: "POST",
    path,
    body: { name: "", answers: ["A", "E"], platform: { url: "x" } },
    status: 422,
    json: expected,
  })),
  { handle: (request) => app.handle(request) },
);
