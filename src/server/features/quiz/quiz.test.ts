import { describe, expect, test } from "bun:test";
import { testApp } from "#tests/support/app.ts";
import { countRows, postJson } from "#tests/support/json.ts";

const allA = Array.from({ length: 15 }, () => "A");
const valid = { archetype: "Girl Next Door", answers: allA };

// Scenario table: every invalid body answers 4xx with a message and stores nothing.
const invalid: { name: string; init: RequestInit; status: number; message: RegExp }[] = [
  { name: "malformed JSON", init: postJson('{"archetype": "Girl', { raw: true }), status: 400, message: /valid JSON/ },
  { name: "empty body", init: postJson("", { raw: true }), status: 400, message: /empty/ },
  { name: "not JSON content type", init: postJson("archetype=x", { raw: true, type: "application/x-www-form-urlencoded" }), status: 415, message: /application\/json/ },
  { name: "text/plain (a cross-site form)", init: postJson(JSON.stringify(valid), { raw: true, type: "text/plain" }), status: 415, message: /application\/json/ },
  { name: "missing archetype", init: postJson({ answers: allA }), status: 422, message: /missing or invalid/ },
  { name: "unknown archetype", init: postJson({ ...valid, archetype: "Astronaut" }), status: 422, message: /missing or invalid/ },
  { name: "14 answers", init: postJson({ ...valid, answers: allA.slice(1) }), status: 422, message: /missing or invalid/ },
  { name: "16 answers", init: postJson({ ...valid, answers: [...allA, "A"] }), status: 422, message: /missing or invalid/ },
  { name: "a letter outside A–D", init: postJson({ ...valid, answers: [...allA.slice(1), "E"] }), status: 422, message: /missing or invalid/ },
  { name: "a string instead of a list", init: postJson({ ...valid, answers: "AAAAAAAAAAAAAAA" }), status: 422, message: /missing or invalid/ },
  { name: "an unknown field (a client-chosen id)", init: postJson({ ...valid, id: "chosen-by-client" }), status: 422, message: /missing or invalid/ },
  { name: "numbers instead of letters", init: postJson({ ...valid, answers: allA.map(() => 1) }), status: 422, message: /missing or invalid/ },
  { name: "an array body", init: postJson([valid]), status: 422, message: /missing or invalid/ },
  { name: "archetype the answers do not give", init: postJson({ ...valid, archetype: "Dominatrix" }), status: 422, message: /score as "Girl Next Door", not "Dominatrix"/ },
  { name: "oversized body (Content-Length)", init: postJson({ ...valid, pad: "x".repeat(20_000) }), status: 413, message: /larger than 16 KB/ },
];

describe("POST /api/quiz/result", () => {
  test("a valid body is scored, stored and answered with a random id", async () => {
    const { request, database } = testApp();
    const res = await request("/api/quiz/result", postJson(valid));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.archetype).toBe("Girl Next Door");
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const other = await (await request("/api/quiz/result", postJson(valid))).json();
    expect(other.id).not.toBe(body.id);
    expect(countRows(database.sqlite, "quiz_results")).toBe(2);
  });

  test.each(invalid)("$name: $status, nothing stored", async ({ init, status, message }) => {
    const { request, database } = testApp();
    const res = await request("/api/quiz/result", init);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect((await res.json()).error + JSON.stringify({})).toMatch(message);
    expect(countRows(database.sqlite, "quiz_results")).toBe(0);
  });

  test("a 422 names the fields and never echoes the body", async () => {
    const { request } = testApp();
    const res = await request("/api/quiz/result", postJson({ archetype: "Secret Agent", answers: ["Z"] }));
    const body = await res.json();
    expect(body.details.map((d: { field: string }) => d.field).sort()).toEqual(["answers", "answers.0", "archetype"]);
    expect(JSON.stringify(body)).not.toContain("Secret Agent");
  });

  test("an oversized chunked body without Content-Length is refused too", async () => {
    const { request, database } = testApp();
    const big = JSON.stringify({ ...valid, pad: "y".repeat(40_000) });
    const stream = new ReadableStream({
      start(controller) {
        const bytes = new TextEncoder().encode(big);
        for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
        controller.close();
      },
    });
    const res = await request("/api/quiz/result", { method: "POST", body: stream, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(countRows(database.sqlite, "quiz_results")).toBe(0);
  });
});

describe("GET /api/quiz/result/:id", () => {
  test("reads a stored result back", async () => {
    const { request } = testApp();
    const { id } = await (await request("/api/quiz/result", postJson(valid))).json();
    const res = await request(`/api/quiz/result/${id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ id, archetype: "Girl Next Door", answers: allA });
    expect(new Date(body.createdAt).toString()).not.toBe("Invalid Date");
  });

  test.each(["nope", "1", "%27%20OR%201%3D1--"])("unknown id %s: 404 JSON", async (id) => {
    const { request } = testApp();
    const res = await request(`/api/quiz/result/${id}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No quiz result with that id." });
  });
});
