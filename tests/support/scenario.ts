// API scenario tables: each row is one request to the real app through app.handle (no
// port) and what its answer must be. Modelled on PocketBase's ApiScenario.
import { describe, expect, test } from "bun:test";
import { login, SAME_ORIGIN } from "./admin.ts";
import { type AnyTestApp, newSiteApp, newTestApp, type TestAppOptions } from "./app.ts";
import { createAdmin } from "./factories.ts";

/**
 * Who sends the request:
 * - `guest`: a visitor, no cookie and no extra headers.
 * - `admin`: the signed-in admin from this site: the session cookie and `Origin: http://localhost`.
 *
 * `headers` add to (or, with null, remove) what `who` sends, e.g. the admin's cookie
 * from a foreign site: `{ who: "admin", headers: { origin: "https://evil.example" } }`.
 */
type Who = "guest" | "admin";

/** Values a scenario's setup made (ids, slugs), by name; `{name}` in `path` is replaced by them. */
type Made = Record<string, unknown>;

interface ScenarioContext extends AnyTestApp {
  /** The admin's session cookie (`name=value`) when `who` is "admin", else null. */
  cookie: string | null;
}

/** The answer, read once. */
export interface ScenarioResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (throws if it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the fields it asserts on; the assertions check their shape
  json<T = any>(): T;
}

/** What a step can send: JSON values, a raw string, or form data, bytes or a stream. */
export type Body =
  | Record<string, unknown>
  | readonly unknown[]
  | string
  | number
  | boolean
  | null
  | FormData
  | Uint8Array
  | ReadableStream
  | Blob;

interface Step {
  method?: string;
  /** The address; `{name}` is replaced by the value `setup` returned under that name. */
  path: string | ((made: Made) => string);
  /**
   * Objects, arrays, numbers, booleans and null are sent as JSON with
   * `Content-Type: application/json`; a string is sent as it is (malformed JSON, say), also
   * as application/json unless `headers` give another type; FormData, bytes and streams are
   * sent untouched.
   */
  body?: Body | ((made: Made) => Body);
  headers?: Record<string, string | null>;
  who?: Who;
  /** The expected status. */
  status: number;
  /**
   * Strings or patterns the body must contain; or an object (or array) the JSON body must
   * match (extra fields allowed, as toMatchObject).
   */
  contains?: (string | RegExp)[] | Record<string, unknown> | unknown[];
  /** The JSON body must equal this exactly. */
  json?: unknown;
  notContains?: (string | RegExp)[];
  /** Answer headers: a string the header must contain, a pattern it must match, null for absent. */
  responseHeaders?: Record<string, string | RegExp | null>;
  /** How many rows each named table must gain (+) or lose (-); 0: the count must not change. */
  rows?: Record<string, number>;
  /** Tables whose whole contents must be exactly as before; true: every table. */
  unchanged?: true | string[];
  /** Anything else to check, with the answer and the app (to read it back, say). */
  check?: (res: ScenarioResponse, api: ScenarioApp, made: Made) => unknown;
}

export interface Scenario extends Step {
  name: string;
  /** Load the bundled content first. Default false: a scenario builds its rows in `setup`, on a database holding only the settings row. */
  seed?: boolean;
  /** Builds the rows the request needs (with the factories); what it returns fills `{name}`s. */
  setup?: (api: ScenarioApp) => unknown;
  /** Options for the app, such as a login throttle with its own clock. */
  app?: Omit<TestAppOptions, "seed">;
}

/**
 * Runs a table of API scenarios, one `test` each, every one on a fresh database with the real
 * migrations, so no row leaks between them (on PostgreSQL, one the scenario before released,
 * brought back to the same rows, when its schema is untouched: tests/support/postgres.ts). The database holds only the
 * settings row, which every page reads (the seed writes it into every real database),
 * unless the scenario asks for the whole seed with `seed: true`.
 * A failure names the scenario, the request, the status and the body.
 *
 * @example
 * const valid = { archetype: "Girl Next Door", answers: Array(15).fill("A") };
 * runScenarios("POST /api/quiz/result", [
 *   { name: "a valid body", method: "POST", path: "/api/quiz/result", body: valid, status: 201, contains: { archetype: "Girl Next Door" }, rows: { quiz_results: 1 } },
 *   { name: "malformed JSON", method: "POST", path: "/api/quiz/result", body: '{"archetype":', status: 400, contains: ["valid JSON"], rows: { quiz_results: 0 } },
 *   { name: "an admin list", who: "admin", path: "/api/admin/blog/post/{id}", method: "DELETE",
 *     setup: async ({ db }) => ({ id: (await createPost(db)).id }), status: 200, rows: { blog_posts: -1 } },
 * ]);
 *
 * For a flow whose steps build on each other (create, then update, then delete), use
 * `scenarioApp()` and `check` each step against the same database.
 */
export function runScenarios(title: string, scenarios: Scenario[], options: TableOptions = {}): void {
  describe(title, () => {
    for (const scenario of scenarios) {
      test(`${scenario.name}: ${scenario.method ?? "GET"} ${typeof scenario.path === "string" ? scenario.path : "(made)"} -> ${scenario.status}`, () =>
        runScenario(scenario, options));
    }
  });
}

export interface TableOptions {
  /**
   * Sends the requests to this handler instead of the cam-guide app, for a table about one
   * plugin on a minimal Elysia app: `{ handle: (request) => app.handle(request) }`. The
   * handler (and its app) is shared by the whole table; the database still comes fresh.
   */
  handle?: (request: Request) => Response | Promise<Response>;
}

/** Runs one scenario on a fresh database. */
async function runScenario(scenario: Scenario, options: TableOptions = {}): Promise<ScenarioResponse> {
  const api = await scenarioApp({
    seed: scenario.seed ?? false,
    ...scenario.app,
    ...options,
    admin: scenario.who === "admin",
    // A request and its checks change rows only: on PostgreSQL a database the scenario before
    // finished with serves, its rows as new.
    reuseDatabase: true,
  });
  try {
    const made = await scenario.setup?.(api);
    return await api.check(scenario, made && typeof made === "object" ? (made as Made) : {}, scenario.name);
  } finally {
    await api.release();
  }
}

export interface ScenarioApp extends ScenarioContext {
  /** Sends one step and checks its answer; answers it for the next step. */
  check(step: Step, made?: Made, name?: string): Promise<ScenarioResponse>;
}

/**
 * The app for a flow of steps on one database (the settings row only, unless `seed: true`). With `admin: true` (or the first step
 * whose `who` is "admin") the admin account exists and is signed in.
 */
export async function scenarioApp(
  options: TestAppOptions & TableOptions & { admin?: boolean } = {},
): Promise<ScenarioApp> {
  const t = options.seed ? await newTestApp(options) : await newSiteApp(options);
  const { handle } = options;
  if (handle) t.request = async (path, init) => handle(new Request(`http://localhost${path}`, init));
  const ctx: ScenarioApp = { ...t, cookie: null, check: (step, made = {}, name) => checkStep(ctx, step, made, name) };
  if (options.admin) await signIn(ctx);
  return ctx;
}

// Signing in costs a password hash check (deliberately slow). Every scenario database has
// the same admin (id 1) and the app the same secret, so a session the real login issued
// once stays valid in the next database; it is still checked there, and a real sign-in
// happens whenever it is not accepted.
let lastCookie: string | null = null;

async function signIn(ctx: ScenarioContext) {
  await createAdmin(ctx.db);
  if (lastCookie) {
    const me = await ctx.request("/api/auth/me", { headers: { cookie: lastCookie } });
    if (me.ok && (await me.json()).isAdmin === true) {
      ctx.cookie = lastCookie;
      return;
    }
  }
  ctx.cookie = lastCookie = await login(ctx.request);
}

function fill(path: Step["path"], made: Made): string {
  if (typeof path === "function") return path(made);
  return path.replace(/\{(\w+)\}/g, (_whole, key: string) => {
    if (!(key in made)) throw new Error(`${path}: setup made no "${key}"`);
    return String(made[key]);
  });
}

function requestInit(step: Step, made: Made, cookie: string | null): RequestInit {
  const headers = new Headers();
  if (step.who === "admin") {
    headers.set("cookie", cookie!);
    headers.set("origin", SAME_ORIGIN.origin);
  }
  const raw = typeof step.body === "function" ? step.body(made) : step.body;
  let body: BodyInit | undefined;
  if (raw === undefined) body = undefined;
  else if (typeof raw === "string") {
    body = raw;
    headers.set("content-type", "application/json");
  } else if (
    raw instanceof FormData ||
    raw instanceof Uint8Array ||
    raw instanceof ReadableStream ||
    raw instanceof Blob
  )
    body = raw as BodyInit;
  else {
    body = JSON.stringify(raw);
    headers.set("content-type", "application/json");
  }
  for (const [name, value] of Object.entries(step.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return { method: step.method ?? "GET", headers, body };
}

/** Every table of the app's schema, by name. */
export async function appTables(testDb: AnyTestApp["testDb"]): Promise<string[]> {
  // The visit counts change with every page a visitor opens, by design (tests/analytics-collect.test.ts),
  // and so, on PostgreSQL, do the write budgets every request takes from (features/limits/shared.test.ts).
  return (await testDb.tables()).filter((name) => !name.startsWith("analytics_") && name !== "shared_limits");
}

async function tableNames(ctx: ScenarioContext, unchanged: Step["unchanged"]): Promise<string[]> {
  if (unchanged === true) return appTables(ctx.testDb);
  return unchanged ?? [];
}

/** Each table's rows, in an order that does not depend on the database's (PostgreSQL promises none). */
export async function contents(testDb: AnyTestApp["testDb"], tables: string[]) {
  const rows = await Promise.all(tables.map((t) => testDb.rows(`SELECT * FROM ${t}`)));
  return Object.fromEntries(tables.map((t, i) => [t, rows[i]!.map((row) => JSON.stringify(row, bigints)).sort()]));
}

function bigints(_key: string, value: unknown) {
  return typeof value === "bigint" ? value.toString() : value;
}

async function counts(ctx: ScenarioContext, tables: string[]) {
  const rows = await Promise.all(tables.map((t) => ctx.testDb.rows<{ n: number }>(`SELECT count(*) AS n FROM ${t}`)));
  return Object.fromEntries(tables.map((t, i) => [t, Number(rows[i]![0]!.n)]));
}

async function checkStep(ctx: ScenarioApp, step: Step, made: Made, name = "step"): Promise<ScenarioResponse> {
  if (step.who === "admin" && !ctx.cookie) await signIn(ctx);
  const path = fill(step.path, made);
  const init = requestInit(step, made, ctx.cookie);
  const watched = await tableNames(ctx, step.unchanged);
  const before = await contents(ctx.testDb, watched);
  const countsBefore = await counts(ctx, Object.keys(step.rows ?? {}));

  const res = await ctx.request(path, init);
  const text = await res.text();
  const answer: ScenarioResponse = { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  try {
    expect(res.status).toBe(step.status);
    for (const [header, want] of Object.entries(step.responseHeaders ?? {})) {
      const got = res.headers.get(header);
      if (want === null) expect(got).toBeNull();
      else if (want instanceof RegExp) expect(got ?? "").toMatch(want);
      else expect(got ?? "").toContain(want);
    }
    if (Array.isArray(step.contains) && step.contains.every((c) => typeof c === "string" || c instanceof RegExp)) {
      for (const needle of step.contains as (string | RegExp)[]) {
        if (needle instanceof RegExp) expect(text).toMatch(needle);
        else expect(text).toContain(needle);
      }
    } else if (step.contains !== undefined) expect(answer.json()).toMatchObject(step.contains as object);
    if (step.json !== undefined) expect(answer.json()).toEqual(step.json);
    for (const needle of step.notContains ?? []) {
      if (needle instanceof RegExp) expect(text).not.toMatch(needle);
      else expect(text).not.toContain(needle);
    }
    if (step.rows) {
      const after = await counts(ctx, Object.keys(step.rows));
      const changed = Object.fromEntries(Object.keys(step.rows).map((t) => [t, after[t]! - countsBefore[t]!]));
      expect(changed).toEqual(step.rows);
    }
    if (watched.length > 0) expect(await contents(ctx.testDb, watched)).toEqual(before);
    await step.check?.(answer, ctx, made);
  } catch (error) {
    const body = text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
    if (error instanceof Error)
      error.message = `${name}: ${init.method} ${path} answered ${res.status}\n${body}\n\n${error.message}`;
    throw error;
  }
  return answer;
}

/** One admin endpoint, as the refusal scenarios below name and call it. */
type AdminEndpoint = Pick<Scenario, "name" | "method" | "path" | "body">;

/**
 * A record the admin edits, by its four endpoints: the list at `<path>s`, create at `<path>`,
 * update and delete at `<path>/{<record>}` (the id the scenario's setup returns as `record`);
 * `others` are the feature's further endpoints.
 */
interface AdminRecord {
  record: string;
  path: string;
  body: Scenario["body"];
  others?: AdminEndpoint[];
}

/**
 * What the admin guard owes every admin endpoint: without the session a 401 with the
 * guard's message, and for a write from another site (a foreign Origin, or marked
 * cross-site by the browser) a 403 even with the session; nothing changes in any case.
 */
export function runAdminRefusals(feature: string, admin: AdminRecord, setup?: Scenario["setup"]): void {
  const { record, path, body, others = [] } = admin;
  const endpoints: AdminEndpoint[] = [
    { name: `list ${record}s`, method: "GET", path: `${path}s` },
    { name: `create ${record}`, method: "POST", path, body },
    { name: `update ${record}`, method: "PUT", path: `${path}/{${record}}`, body },
    { name: `delete ${record}`, method: "DELETE", path: `${path}/{${record}}` },
    ...others,
  ];
  runScenarios(
    `${feature} admin API without the session or from another site`,
    refusedAdminScenarios(endpoints, setup),
  );
}

function refusedAdminScenarios(endpoints: AdminEndpoint[], setup?: Scenario["setup"]): Scenario[] {
  const foreign: { label: string; headers: Record<string, string | null> }[] = [
    { label: "from a foreign Origin", headers: { origin: "https://evil.example" } },
    { label: "marked cross-site", headers: { origin: null, "sec-fetch-site": "cross-site" } },
  ];
  return [
    ...endpoints.map(
      (e): Scenario => ({
        ...e,
        name: `${e.name}: 401, nothing changes`,
        setup,
        headers: { origin: "http://localhost" },
        status: 401,
        json: { error: "Sign in as the admin to continue." },
        unchanged: true,
      }),
    ),
    ...endpoints
      .filter((e) => e.method !== "GET")
      .flatMap((e) =>
        foreign.map(
          ({ label, headers }): Scenario => ({
            ...e,
            name: `${e.name} ${label} with the session: 403, nothing changes`,
            who: "admin",
            setup,
            headers,
            status: 403,
            unchanged: true,
          }),
        ),
      ),
  ];
}

/**
 * A wizard's last step posted as a form without JavaScript and refused: a 4xx page (never a
 * 5xx, never JSON to a browser without scripts) leading back to the form, and nothing saved.
 */
export function refusedFormScenarios(
  post: { path: string; headers: Record<string, string> },
  table: string,
  refused: [name: string, body: Body, status: number, headers?: Record<string, string>][],
): Scenario[] {
  return refused.map(([name, body, status, headers]) => ({
    method: "POST",
    path: post.path,
    name: `${name}: a ${status} page, nothing saved`,
    body,
    headers: { ...post.headers, ...headers },
    status,
    responseHeaders: { "content-type": /text\/html/ },
    contains: ["Your answers could not be used", `href="${post.path}"`],
    rows: { [table]: 0 },
  }));
}
