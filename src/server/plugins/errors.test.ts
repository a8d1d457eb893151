import { expect } from "bun:test";
import { Elysia, t } from "elysia";
import { memoryLogger } from "#server/logger.ts";
import { runScenarios } from "#tests/support/scenario.ts";
import { errorHandler, HttpError } from "./errors.ts";

// The plugin on a minimal app with one route of each kind the feature modules use.
const logger = memoryLogger();
const app = new Elysia()
  .use(
    errorHandler({
      logger,
      renderErrorPage: async (_r, status) =>
        new Response(`<h1>page ${status}</h1>`, { status, headers: { "content-type": "text/html" } }),
    }),
  )
  .post("/api/login", () => ({ ok: true }), {
    body: t.Object({
      username: t.String({ minLength: 1 }),
      password: t.String({ minLength: 8, error: "Password is required" }),
    }),
  })
  .get("/api/conflict", () => {
    throw new HttpError(409, "That slug is already used.");
  })
  .get("/api/crash", () => {
    throw new Error("SQLITE_CONSTRAINT: UNIQUE constraint failed: secret_table.col");
  })
  .get("/page-crash", () => {
    throw new Error("internal detail");
  });

runScenarios(
  "error handler",
  [
    {
      name: "invalid JSON is a 400 with a clear message",
      method: "POST",
      path: "/api/login",
      body: '{"username": "a", ',
      status: 400,
      contains: { error: expect.stringContaining("valid JSON") },
    },
    {
      name: "validation is a 422 listing fields, never echoing the submitted password",
      method: "POST",
      path: "/api/login",
      body: { username: "", password: "hunter2" },
      status: 422,
      notContains: ["hunter2"],
      contains: { error: "Some fields are missing or invalid." },
      check: (res) => {
        const { details } = res.json<{ details: { field: string; message: string }[] }>();
        expect(details.map((d) => d.field).sort()).toEqual(["password", "username"]);
        expect(details.find((d) => d.field === "password")!.message).toBe("Password is required");
      },
    },
    {
      name: "an HttpError keeps its status and message",
      path: "/api/conflict",
      status: 409,
      json: { error: "That slug is already used." },
    },
    {
      name: "an unexpected API error is a generic 500; the detail goes only to the log",
      path: "/api/crash",
      status: 500,
      notContains: ["SQLITE", "secret_table"],
      check: () => expect(logger.lines.join("\n")).toContain("secret_table"),
    },
    {
      name: "an unexpected page error renders the HTML error page",
      path: "/page-crash",
      status: 500,
      check: (res) => expect(res.text).toBe("<h1>page 500</h1>"),
    },
    {
      name: "a form-encoded body where JSON is expected is refused",
      method: "POST",
      path: "/api/login",
      body: "username=a&password=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      // This minimal app has no Content-Type guard (the real app answers 415 first), so the
      // form is parsed and its fields fail validation.
      status: 422,
    },
  ],
  { handle: (request) => app.handle(request) },
);
