import { expect } from "bun:test";
import { Elysia, t } from "elysia";
import type { StorageState } from "#server/lib/storage-health.ts";
import { memoryLogger } from "#server/logger.ts";
import { runScenarios, type Scenario } from "#tests/support/scenario.ts";
import { errorHandler, HttpError } from "./errors.ts";

// The plugin on a minimal app with one route of each kind the feature modules use.
const logger = memoryLogger();
const renderErrorPage = async (_request: Request, status: number) =>
  new Response(`<h1>page ${status}</h1>`, { status, headers: { "content-type": "text/html" } });
const app = new Elysia()
  .use(
    errorHandler({
      logger,
      renderErrorPage,
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

// Failures of the storage under the data: never a generic 500. The handler looks at the storage
// again (here a stand-in that says whether the disk is full) and names the real cause.
let diskState: StorageState = { ok: true };
const storageApp = new Elysia()
  .use(
    errorHandler({
      logger,
      renderErrorPage,
      storage: { recheck: () => diskState },
    }),
  )
  .post("/api/throw/:kind", ({ params }) => {
    throw faults[params.kind]!();
  })
  .post("/page/throw/:kind", ({ params }) => {
    throw faults[params.kind]!();
  })
  .get("/api/read/:kind", ({ params }) => {
    throw faults[params.kind]!();
  });

const sqlite = (code: string) => Object.assign(new Error("driver message with secret_table"), { code, errno: 13 });
const faults: Record<string, () => unknown> = {
  "sqlite-full": () => sqlite("SQLITE_FULL"),
  "sqlite-ioerr": () => sqlite("SQLITE_IOERR_WRITE"),
  "sqlite-readonly": () => sqlite("SQLITE_READONLY_DBMOVED"),
  "wrapped-full": () => new Error("Failed query: insert into secret_table", { cause: sqlite("SQLITE_FULL") }),
  enospc: () =>
    Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" }),
  edquot: () => Object.assign(new Error("EDQUOT"), { code: "EDQUOT", syscall: "write" }),
  efbig: () => Object.assign(new Error("EFBIG: file too large"), { code: "EFBIG", syscall: "write" }),
  eio: () => Object.assign(new Error("EIO: i/o error"), { code: "EIO", syscall: "fsync" }),
  erofs: () => Object.assign(new Error("EROFS"), { code: "EROFS", syscall: "open" }),
  constraint: () => sqlite("SQLITE_CONSTRAINT_UNIQUE"),
  emfile: () => Object.assign(new Error("EMFILE: too many open files, open"), { code: "EMFILE", syscall: "open" }),
  enfile: () =>
    new Error("could not store", {
      cause: Object.assign(new Error("ENFILE: file table overflow"), { code: "ENFILE", syscall: "open" }),
    }),
};

const storageCases: [string, string, StorageState, number, RegExp][] = [
  ["SQLITE_FULL", "sqlite-full", { ok: true }, 507, /disk holding the data is full/],
  ["SQLITE_FULL wrapped by the query builder", "wrapped-full", { ok: true }, 507, /full/],
  ["ENOSPC from a file write", "enospc", { ok: true }, 507, /full/],
  ["EDQUOT (over quota)", "edquot", { ok: true }, 507, /full/],
  ["EFBIG (over the file size limit)", "efbig", { ok: true }, 507, /full/],
  ["an SQLite I/O error", "sqlite-ioerr", { ok: true }, 503, /storage error/],
  ["a read-only database", "sqlite-readonly", { ok: true }, 503, /storage error/],
  ["EIO", "eio", { ok: true }, 503, /storage error/],
  ["EROFS", "erofs", { ok: true }, 503, /storage error/],
  [
    "an I/O error while the disk is full: the fresh look decides",
    "sqlite-ioerr",
    { ok: false, status: 507, reason: "the disk holding the data is full (0 KB free)" },
    507,
    /0 KB free/,
  ],
  [
    "any fault while the database file is gone",
    "sqlite-full",
    { ok: false, status: 503, reason: "the database file app.db is missing" },
    503,
    /app\.db is missing/,
  ],
];

runScenarios(
  "error handler: storage faults",
  [
    ...storageCases.map(
      ([name, kind, state, status, message]): Scenario => ({
        name: `${name}: ${status} with Retry-After, no driver detail`,
        method: "POST",
        path: `/api/throw/${kind}`,
        setup: () => {
          diskState = state;
        },
        status,
        contains: { error: expect.stringMatching(message) },
        responseHeaders: { "retry-after": /^\d+$/, "cache-control": "no-store" },
        notContains: ["secret_table", "SQLITE", "ENOSPC"],
        check: (res) => expect(res.json<{ error: string }>().error).toStartWith("Nothing was saved:"),
      }),
    ),
    {
      name: "a read that fails on the storage does not say nothing was saved: it says it could not be read",
      path: "/api/read/sqlite-ioerr",
      setup: () => {
        diskState = { ok: true };
      },
      status: 503,
      contains: { error: expect.stringMatching(/^This could not be read: .*storage error.*Try again later\.$/) },
      responseHeaders: { "retry-after": /^\d+$/, "cache-control": "no-store" },
      notContains: ["secret_table", "SQLITE", "Nothing was saved"],
    },
    {
      name: "a storage fault on a form a page posted: a page saying nothing was saved, 507 and Retry-After",
      method: "POST",
      path: "/page/throw/enospc",
      setup: () => {
        diskState = { ok: true };
      },
      status: 507,
      responseHeaders: { "retry-after": /^\d+$/, "content-type": /text\/html/, "cache-control": "no-store" },
      check: (res) => {
        expect(res.text).toContain("Nothing was saved: the disk holding the data is full");
        // The way back is a page of the site, never the posted path.
        expect(res.text).toContain('<a href="/">Back to the home page</a>');
      },
    },
    ...(["emfile", "enfile"] as const).map(
      (kind): Scenario => ({
        name: `${kind.toUpperCase()} (out of file descriptors) is not blamed on the storage: 503, try again soon`,
        method: "POST",
        path: `/api/throw/${kind}`,
        setup: () => {
          diskState = { ok: true };
        },
        status: 503,
        contains: { error: expect.stringMatching(/too many connections and files open.*try again in a minute/) },
        responseHeaders: { "retry-after": /^\d+$/, "cache-control": "no-store" },
        notContains: ["EMFILE", "ENFILE", "storage", "disk"],
      }),
    ),
    {
      name: "a constraint error is not a storage fault: still the generic 500",
      method: "POST",
      path: "/api/throw/constraint",
      status: 500,
      responseHeaders: { "retry-after": null },
    },
  ],
  { handle: (request) => storageApp.handle(request) },
);
