import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { errorHandler, HttpError } from "./errors.ts";
import { memoryLogger } from "#server/logger.ts";

// The plugin on a minimal app with one route of each kind the feature modules use.
function appWithErrors() {
  const logger = memoryLogger();
  const app = new Elysia()
    .use(errorHandler({ logger, renderErrorPage: async (_r, status) => new Response(`<h1>page ${status}</h1>`, { status, headers: { "content-type": "text/html" } }) }))
    .post("/api/login", () => ({ ok: true }), {
      body: t.Object({ username: t.String({ minLength: 1 }), password: t.String({ minLength: 8, error: "Password is required" }) }),
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
  const post = (path: string, body: string, type = "application/json") =>
    app.handle(new Request(`http://localhost${path}`, { method: "POST", body, headers: { "content-type": type } }));
  return { app, logger, post };
}

describe("error handler", () => {
  test("invalid JSON is a 400 with a clear message", async () => {
    const { post } = appWithErrors();
    const res = await post("/api/login", '{"username": "a", ');
    expect(res.status).toBe(400);
    expect((await res.json()).error).toContain("valid JSON");
  });

  test("validation is a 422 listing fields, never echoing the submitted password", async () => {
    const { post } = appWithErrors();
    const res = await post("/api/login", JSON.stringify({ username: "", password: "hunter2" }));
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).not.toContain("hunter2");
    const body = JSON.parse(text);
    expect(body.error).toBe("Some fields are missing or invalid.");
    expect(body.details.map((d: { field: string }) => d.field).sort()).toEqual(["password", "username"]);
    expect(body.details.find((d: { field: string }) => d.field === "password").message).toBe("Password is required");
  });

  test("an HttpError keeps its status and message", async () => {
    const { app } = appWithErrors();
    const res = await app.handle(new Request("http://localhost/api/conflict"));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: "That slug is already used." });
  });

  test("an unexpected API error is a generic 500; the detail goes only to the log", async () => {
    const { app, logger } = appWithErrors();
    const res = await app.handle(new Request("http://localhost/api/crash"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("SQLITE");
    expect(text).not.toContain("secret_table");
    expect(logger.lines.join("\n")).toContain("secret_table");
  });

  test("an unexpected page error renders the HTML error page", async () => {
    const { app } = appWithErrors();
    const res = await app.handle(new Request("http://localhost/page-crash"));
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("<h1>page 500</h1>");
  });

  test("a form-encoded body where JSON is expected is refused", async () => {
    const { post } = appWithErrors();
    const res = await post("/api/login", "username=a&password=b", "application/x-www-form-urlencoded");
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
