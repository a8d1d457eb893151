// Adversarial: session cookies a client may send, what is never cached, HSTS, the sign-in
// form without JavaScript, and the session secret file. The app is the real one (app.handle
// or a real socket); the secret file cases start the compiled executable.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SignJWT } from "jose";
import { hashPassword } from "#server/features/auth/bootstrap.ts";
import { sessionTokens } from "#server/features/auth/session.ts";
import { LoginThrottle } from "#server/features/auth/throttle.ts";
import { login, SAME_ORIGIN } from "#tests/support/admin.ts";
import { siteApp, TEST_SECRET, type TestAppOptions } from "#tests/support/app.ts";
import { SERVER_ADMIN_PASSWORD } from "#tests/support/binary.ts";
import { ADMIN, createAdmin } from "#tests/support/factories.ts";
import { httpFrom } from "#tests/support/http-from.ts";
import { listeningApp } from "#tests/support/listening.ts";
import { run as runExecutable } from "#tests/support/site-files.ts";
import { siteDataDir, withServer } from "#tests/support/template-site.ts";

const HSTS = "max-age=31536000";

async function appWithAdmin(options: Omit<TestAppOptions, "seed"> = {}) {
  const t = await siteApp(options);
  await createAdmin(t.db);
  return t;
}

const key = new TextEncoder().encode(TEST_SECRET);
const signed = (claims: Record<string, unknown>, sub: string, exp: string | number = "1h") =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(sub).setExpirationTime(exp).sign(key);
const b64 = (text: string) => Buffer.from(text).toString("base64url");

// Every one of these is "no session": never a 5xx, whatever the route.
const BAD_COOKIES: [string, () => Promise<string> | string][] = [
  ["a lone %", () => "cg_session=%"],
  ["a truncated escape", () => "cg_session=%E0%A4%A"],
  ["an invalid escape", () => "cg_session=%zz%"],
  ["a lone surrogate escape", () => "cg_session=%ED%A0%80"],
  ["bad base64 in all three parts", () => "cg_session=!!!.@@@.###"],
  ["base64 of something that is not JSON", () => `cg_session=${b64("not json")}.${b64("{")}.c2ln`],
  ["JSON that is not an object", () => `cg_session=${b64("[1]")}.${b64("42")}.c2ln`],
  ["alg none", () => `cg_session=${b64('{"alg":"none"}')}.${b64('{"sub":"1","v":0,"exp":9999999999}')}.`],
  ["a huge value", () => `cg_session=${"A".repeat(7000)}`],
  ["a huge three-part value", () => `cg_session=${"a".repeat(2500)}.${"b".repeat(2500)}.${"c".repeat(2500)}`],
  ["a JSON object", () => 'cg_session={"isAdmin":true}'],
  ["a JSON array", () => "cg_session=[1,2,3]"],
  ["a quoted value", () => 'cg_session="a.b.c"'],
  ["an empty value", () => "cg_session="],
  ["a name without a value", () => "cg_session"],
  ["only separators", () => ";;; ;="],
  ["several cookies of that name", () => "cg_session=a; cg_session=b.c.d; cg_session=%"],
  ["prototype names", () => "__proto__=1; constructor=2; prototype=3; toString=4; hasOwnProperty=5"],
  ["a name with spaces and odd characters", () => "cg session=x; cg_session\t=y; c\u00e9=z; [a]=1"],
  [
    "another site's secret",
    async () =>
      `cg_session=${await sessionTokens("another-secret-another-secret-0123").sign({ id: 1, tokenVersion: 0 })}`,
  ],
  ["our key, expired", async () => `cg_session=${await signed({ v: 0 }, "1", Math.floor(Date.now() / 1000) - 60)}`],
  ["our key, a subject that is not an id", async () => `cg_session=${await signed({ v: 0 }, "admin")}`],
  ["our key, a subject that overflows", async () => `cg_session=${await signed({ v: 0 }, "1e400")}`],
  ["our key, a version that is a string", async () => `cg_session=${await signed({ v: "0" }, "1")}`],
  ["our key, an admin that does not exist", async () => `cg_session=${await signed({ v: 0 }, "999")}`],
  ["our key, an old version", async () => `cg_session=${await signed({ v: -1 }, "1")}`],
];

const ROUTES: [string, string, number][] = [
  ["GET", "/", 200],
  ["GET", "/admin", 200],
  ["GET", "/admin-login", 200],
  ["GET", "/blog", 200],
  ["GET", "/healthz", 200],
  ["GET", "/api/settings", 200],
  ["GET", "/api/auth/me", 200],
  ["GET", "/api/admin/settings", 401],
  ["GET", "/api/admin/blog/posts", 401],
  ["POST", "/api/upload", 401],
  ["POST", "/api/auth/logout", 200],
];

describe("a malformed or foreign session cookie is no session, on every route", () => {
  test.each(BAD_COOKIES)("%s", async (_name, make) => {
    const api = await appWithAdmin();
    const cookie = await make();
    for (const [method, path, status] of ROUTES) {
      const res = await api.request(path, { method, headers: { cookie, ...SAME_ORIGIN } });
      expect([method, path, res.status]).toEqual([method, path, status]);
      if (path === "/api/auth/me") expect(await res.json()).toEqual({ isAdmin: false });
    }
    // Signing in works with the junk still sent, and the new cookie replaces it.
    const signIn = await api.request("/api/auth/login", {
      method: "POST",
      headers: { cookie, ...SAME_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get("set-cookie")).toStartWith("cg_session=ey");
  });

  test("a valid session among junk cookies, or after other cookies of the same name, still counts", async () => {
    const api = await appWithAdmin();
    const valid = await login(api.request);
    const stale = `cg_session=${await signed({ v: -1 }, "1")}`;
    for (const cookie of [
      `junk=%; ${valid}; x={"a":`,
      `cg_session=%; ${valid}`,
      `cg_session=a.b.c; ${valid}`,
      `${stale}; ${valid}`,
      `${valid}; cg_session=a.b.c`,
    ]) {
      const res = await api.request("/api/admin/settings", { headers: { cookie } });
      expect([cookie.slice(0, 30), res.status]).toEqual([cookie.slice(0, 30), 200]);
    }
  });

  describe("raw header bytes fetch would refuse, on a real socket", () => {
    const raw: [string, Record<string, string | string[]>, number[]][] = [
      ["latin-1 bytes", { cookie: "cg_session=\xff\xfe\xe9" }, [200]],
      ["a cookie header sent three times", { cookie: ["cg_session=%", 'cg_session={"a', "cg_session=a.b.c"] }, [200]],
      ["a NUL escape", { cookie: "cg_session=%00.%00.%00" }, [200]],
      ["a control character (refused by the HTTP parser)", { cookie: "cg_session=\x01" }, [400]],
      ["a header too large (refused by the HTTP parser)", { cookie: `cg_session=${"a".repeat(40_000)}` }, [431]],
    ];
    test.each(raw)("%s", async (_name, headers, statuses) => {
      const api = await listeningApp();
      for (const path of ["/", "/api/auth/me", "/api/admin/settings", "/healthz"]) {
        const res = await api.send({ path, headers });
        const expected = path === "/api/admin/settings" && statuses[0] === 200 ? 401 : statuses[0];
        expect([path, res.status]).toEqual([path, expected!]);
      }
    });
  });
});

describe("private answers are never stored: Cache-Control: no-store", () => {
  const json = { "content-type": "application/json", ...SAME_ORIGIN };
  const form = { "content-type": "application/x-www-form-urlencoded", ...SAME_ORIGIN };
  const cases: [string, RequestInit & { path: string; admin?: boolean }, number][] = [
    ["sign-in, right", { path: "/api/auth/login", method: "POST", headers: json, body: JSON.stringify(ADMIN) }, 200],
    [
      "sign-in, wrong",
      { path: "/api/auth/login", method: "POST", headers: json, body: '{"username":"admin","password":"x"}' },
      401,
    ],
    ["sign-in, missing fields", { path: "/api/auth/login", method: "POST", headers: json, body: "{}" }, 422],
    ["sign-in, malformed JSON", { path: "/api/auth/login", method: "POST", headers: json, body: "{" }, 400],
    [
      "sign-in, wrong type",
      { path: "/api/auth/login", method: "POST", headers: { "content-type": "text/plain" }, body: "x" },
      415,
    ],
    [
      "sign-in, foreign origin",
      {
        path: "/api/auth/login",
        method: "POST",
        headers: { ...json, origin: "https://evil.example" },
        body: JSON.stringify(ADMIN),
      },
      403,
    ],
    [
      "sign-in form, right",
      { path: "/api/auth/login", method: "POST", headers: form, body: `username=admin&password=${ADMIN.password}` },
      303,
    ],
    [
      "sign-in form, wrong",
      { path: "/api/auth/login", method: "POST", headers: form, body: "username=admin&password=x" },
      303,
    ],
    ["sign-out", { path: "/api/auth/logout", method: "POST", headers: SAME_ORIGIN }, 200],
    [
      "sign-out, foreign origin",
      { path: "/api/auth/logout", method: "POST", headers: { origin: "https://evil.example" } },
      403,
    ],
    ["who am I", { path: "/api/auth/me" }, 200],
    ["an unknown auth address", { path: "/api/auth/nothing" }, 404],
    ["admin read, guest", { path: "/api/admin/settings" }, 401],
    ["admin read", { path: "/api/admin/settings", admin: true }, 200],
    ["admin, unknown address", { path: "/api/admin/nothing", admin: true }, 404],
    [
      "admin write, invalid",
      { path: "/api/admin/settings", method: "PUT", admin: true, headers: json, body: '{"brandName":""}' },
      422,
    ],
    [
      "admin write, foreign origin",
      {
        path: "/api/admin/settings",
        method: "PUT",
        admin: true,
        headers: { ...json, origin: "https://evil.example" },
        body: "{}",
      },
      403,
    ],
    ["upload, guest", { path: "/api/upload", method: "POST", headers: SAME_ORIGIN }, 401],
    ["upload, wrong type", { path: "/api/upload", method: "POST", admin: true, headers: json, body: "{}" }, 415],
  ];

  test.each(cases)("%s", async (_name, { path, admin, ...init }, status) => {
    const api = await appWithAdmin();
    const headers = new Headers(init.headers);
    if (admin) headers.set("cookie", await login(api.request));
    const res = await api.request(path, { ...init, headers });
    expect(res.status).toBe(status);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("an upload that is stored answers no-store", async () => {
    const api = await appWithAdmin();
    const body = new FormData();
    body.append("file", new File([readFileSync(join(import.meta.dir, "..", "fixtures", "cover.jpg"))], "cover.jpg"));
    const res = await api.request("/api/upload", {
      method: "POST",
      headers: { cookie: await login(api.request), ...SAME_ORIGIN },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  test("no public page or read sets a cookie, signed in or not; every answer that sets one is no-store", async () => {
    const api = await appWithAdmin();
    const cookie = await login(api.request);
    for (const path of [
      "/",
      "/blog",
      "/quiz",
      "/learn",
      "/terms",
      "/admin",
      "/admin-login",
      "/api/settings",
      "/sitemap.xml",
      "/sitemap-pages.xml",
      "/sitemap-posts-1.xml",
      "/blog/rss.xml",
      "/robots.txt",
      "/healthz",
      "/no-such-page",
    ]) {
      for (const headers of [{}, { cookie }] as Record<string, string>[]) {
        const res = await api.request(path, { headers });
        expect([path, res.headers.get("set-cookie")]).toEqual([path, null]);
      }
    }
    for (const res of [
      await api.request("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", ...SAME_ORIGIN },
        body: JSON.stringify(ADMIN),
      }),
      await api.request("/api/auth/logout", { method: "POST", headers: { cookie, ...SAME_ORIGIN } }),
    ]) {
      expect(res.headers.get("set-cookie")).not.toBeNull();
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("HSTS only over HTTPS", () => {
  const PATHS = [
    "/",
    "/healthz",
    "/api/settings",
    "/api/auth/me",
    "/api/admin/settings",
    "/no-such-page",
    "/api/nothing",
    "/robots.txt",
    "/favicon.ico",
    "/sitemap.xml",
    "/sitemap-posts-1.xml",
    "/course-complete",
    "/uploads/nothing.png",
  ];
  const SPOOFS: Record<string, string>[] = [
    {},
    { "x-forwarded-proto": "https" },
    { forwarded: "proto=https" },
    { "x-forwarded-ssl": "on", "front-end-https": "on" },
  ];

  test.each([
    ["PUBLIC_URL unset", null, null],
    ["PUBLIC_URL http", "http://guide.example", null],
    ["PUBLIC_URL https", "https://guide.example", HSTS],
  ])(
    "%s (app.handle, no proxy): every answer's HSTS is %p whatever the client claims",
    async (_n, publicUrl, expected) => {
      const api = await appWithAdmin({ publicUrl });
      for (const path of PATHS) {
        for (const headers of SPOOFS) {
          const res = await api.request(path, { headers });
          expect(res.status).toBeLessThan(500);
          expect([path, headers, res.headers.get("strict-transport-security")]).toEqual([path, headers, expected]);
        }
      }
    },
  );

  test("the value makes no promise for other hosts: no includeSubDomains, no preload", async () => {
    const api = await appWithAdmin({ publicUrl: "https://guide.example" });
    expect((await api.request("/")).headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  test("PUBLIC_URL https behind a trusted proxy that says the request came over plain http: no HSTS, no Secure", async () => {
    const api = await listeningApp({ publicUrl: "https://guide.example", trustedProxies: ["127.0.0.1"] });
    const http = { "x-forwarded-proto": "http" };
    expect((await api.send({ path: "/", headers: http })).headers.get("strict-transport-security")).toBeNull();
    expect((await api.send({ path: "/" })).headers.get("strict-transport-security")).toBe(HSTS);
    const signIn = await api.login(ADMIN.password, { headers: { ...http, origin: "https://guide.example" } });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get("set-cookie")).not.toContain("Secure");
  });

  test.each([
    [null, false],
    ["http://guide.example", false],
    ["https://guide.example", true],
  ])("PUBLIC_URL %p: the session cookie is Secure: %p", async (publicUrl, secure) => {
    const api = await appWithAdmin({ publicUrl });
    const res = await api.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", ...SAME_ORIGIN, "x-forwarded-proto": "https" },
      body: JSON.stringify(ADMIN),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")!.includes("Secure")).toBe(secure);
  });
});

describe("the sign-in form works without JavaScript, and never puts a password in an address", () => {
  const post = (api: Awaited<ReturnType<typeof appWithAdmin>>, body: string, headers: Record<string, string> = {}) =>
    api.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...SAME_ORIGIN, ...headers },
      body,
      redirect: "manual",
    });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  test("the page's form posts to the sign-in endpoint", async () => {
    const api = await appWithAdmin();
    const html = await (await api.request("/admin-login")).text();
    const tag = /<form[^>]*>/.exec(html)?.[0] ?? "";
    expect(tag).toContain('method="post"');
    expect(tag).toContain('action="/api/auth/login"');
    expect(html).toContain('name="username"');
    expect(html).toContain('name="password"');
  });

  test("the right password: 303 to /admin with the session; the dashboard and /api/auth/me see it", async () => {
    const api = await appWithAdmin();
    const res = await post(api, form(ADMIN));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin");
    const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
    expect(cookie).toStartWith("cg_session=ey");
    expect((await api.request("/admin", { headers: { cookie } })).status).toBe(200);
    expect(await (await api.request("/api/auth/me", { headers: { cookie } })).json()).toMatchObject({ isAdmin: true });
  });

  test("with a charset, in another field order, with extra fields: the same", async () => {
    const api = await appWithAdmin();
    const res = await post(api, `remember=1&password=${encodeURIComponent(ADMIN.password)}&username=admin`, {
      "content-type": "application/x-www-form-urlencoded; charset=UTF-8",
    });
    expect([res.status, res.headers.get("location")]).toEqual([303, "/admin"]);
  });

  test("a password with &, =, + and non-ASCII characters is read as typed", async () => {
    const api = await siteApp();
    const password = "p&ss=wörd+ 🔑 100%";
    await createAdmin(api.db, { passwordHash: await hashPassword(password) });
    const res = await post(api, form({ username: "admin", password }));
    expect([res.status, res.headers.get("location")]).toEqual([303, "/admin"]);
  });

  test.each([
    ["a wrong password", { username: "admin", password: "not-it" }, "credentials", "Invalid username or password"],
    [
      "an unknown user",
      { username: "nobody", password: ADMIN.password },
      "credentials",
      "Invalid username or password",
    ],
    ["no fields", {}, "missing", "Enter your username and password."],
    ["an empty password", { username: "admin", password: "" }, "missing", "Enter your username and password."],
    [
      "a user name too long",
      { username: "a".repeat(65), password: "x" },
      "missing",
      "Enter your username and password.",
    ],
  ])("%s: back to the page with a code, and the page says why", async (_n, fields, code, message) => {
    const api = await appWithAdmin();
    const res = await post(api, form(fields as Record<string, string>));
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toBe(`/admin-login?error=${code}`);
    expect(res.headers.get("set-cookie")).toBeNull();
    const page = await (await api.request(location)).text();
    expect(page).toContain(message);
    const typed = (fields as { password?: string }).password;
    if (typed) expect(location).not.toContain(typed);
  });

  test("throttled: back to the page with the wait, which the page shows", async () => {
    const api = await appWithAdmin({ testHooks: { loginThrottle: new LoginThrottle(2) } });
    for (let i = 0; i < 2; i++) await post(api, form({ username: "admin", password: `wrong-${i}` }));
    const res = await post(api, form(ADMIN));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/admin-login\?error=throttled&wait=\d+$/);
    expect(await (await api.request(res.headers.get("location")!)).text()).toMatch(
      /Too many failed sign-in attempts\. Try again in \d+ minutes?\./,
    );
  });

  test.each([
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["a cross-site fetch", { origin: "", "sec-fetch-site": "cross-site" }],
  ])("%s is refused with 403 and no session", async (_n, headers) => {
    const api = await appWithAdmin();
    const res = await post(api, form(ADMIN), headers);
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("a form body over 16 KB is refused with 413", async () => {
    const api = await appWithAdmin();
    const res = await post(api, form({ username: "admin", password: "x".repeat(20_000) }));
    expect(res.status).toBe(413);
  });

  test.each([
    "/admin-login?username=admin&password=hunter2-secret",
    "/admin-login?password=hunter2-secret",
    "/admin-login?error=credentials&password=hunter2-secret",
    "/admin-login?PASSWORD=hunter2-secret",
  ])("GET %s is sent on to the bare page at once", async (path) => {
    const api = await appWithAdmin();
    const res = await api.request(path, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin-login");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).not.toContain("hunter2");
  });
});

describe("the session secret file (the compiled executable)", () => {
  /**
   * A site that exists (its database seeded) without its secret file: a secret file without
   * a database would be refused for another reason, as a site whose database went missing.
   */
  async function siteDir(): Promise<string> {
    const dir = await siteDataDir("secret");
    rmSync(join(dir, "jwt-secret"));
    return dir;
  }

  /** Runs the executable on a site prepared by `prepare`; a refusal answers its exit code and stderr. */
  async function run(prepare: (dir: string) => void, env: Record<string, string> = {}) {
    const dir = await siteDir();
    prepare(dir);
    // tests/support/site-files.ts draws the port again when another test process took it.
    const { code, stderr } = await runExecutable(dir, [], { ADMIN_PASSWORD: SERVER_ADMIN_PASSWORD, ...env });
    return { dir, code, stderr };
  }

  test.each([
    ["5 characters", "short"],
    ["31 characters", "x".repeat(31)],
    ["31 characters padded with whitespace", `  ${"x".repeat(31)}  \n`],
  ])("a secret of %s stops the start with a clear message and is left as it was", async (_n, content) => {
    const { dir, code, stderr } = await run((d) => writeFileSync(join(d, "jwt-secret"), content));
    expect(code).toBe(1);
    expect(stderr).toContain("jwt-secret");
    expect(stderr).toContain("at least 32");
    // A message, not a stack trace.
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, "jwt-secret"), "utf8")).toBe(content);
  });

  test.each([
    ["a directory", (d: string) => mkdirSync(join(d, "jwt-secret"))],
    ["a file of 1 MB", (d: string) => writeFileSync(join(d, "jwt-secret"), "x".repeat(1024 * 1024))],
  ])("%s in its place stops the start with a clear message", async (_n, prepare) => {
    const { code, stderr } = await run(prepare);
    expect(code).toBe(1);
    expect(stderr).toContain("Cannot use the session secret");
  });

  test.each([
    ["empty", ""],
    ["whitespace only", " \n\t \n"],
  ])("an %s file is replaced by a new secret, and the server starts", async (_n, content) => {
    const dir = await siteDir();
    writeFileSync(join(dir, "jwt-secret"), content);
    await withServer(
      async () => {
        const secret = readFileSync(join(dir, "jwt-secret"), "utf8");
        expect(secret.trim().length).toBeGreaterThanOrEqual(32);
        expect(statSync(join(dir, "jwt-secret")).mode & 0o777).toBe(0o600);
      },
      { dataDir: dir },
    );
  });

  test("a secret of exactly 32 characters is used as it is, across restarts", async () => {
    const dir = await siteDir();
    writeFileSync(join(dir, "jwt-secret"), "s".repeat(32));
    await withServer(
      async (server) => {
        expect(readFileSync(join(dir, "jwt-secret"), "utf8")).toBe("s".repeat(32));
        const res = await httpFrom(server.port, {
          method: "POST",
          path: "/api/auth/login",
          headers: { "content-type": "application/json", origin: `http://127.0.0.1:${server.port}` },
          body: JSON.stringify({ username: "admin", password: SERVER_ADMIN_PASSWORD }),
        });
        expect(res.status).toBe(200);
      },
      { dataDir: dir },
    );
  });

  test("JWT_SECRET shorter than 32 characters stops the start (the file is not consulted)", async () => {
    const { code, stderr } = await run(() => {}, { JWT_SECRET: "too-short" });
    expect(code).toBe(1);
    expect(stderr).toContain("JWT_SECRET must be at least 32 characters");
  });
});
