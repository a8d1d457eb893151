import { describe, expect, test } from "bun:test";
import { ADMIN, adminApp } from "#tests/support/admin.ts";
import { settingsInput } from "#tests/support/admin-inputs.ts";
import { renderPage } from "#tests/support/page.ts";
import { runScenarios, scenarioApp } from "#tests/support/scenario.ts";

const settings = settingsInput();

runScenarios("settings admin API without the session or from another site", [
  {
    name: "read settings: 401",
    path: "/api/admin/settings",
    headers: { origin: "http://localhost" },
    status: 401,
    json: { error: "Sign in as the admin to continue." },
    unchanged: true,
  },
  {
    name: "update settings: 401, nothing changes",
    method: "PUT",
    path: "/api/admin/settings",
    body: settings,

    headers: { origin: "http://localhost" },
    status: 401,
    json: { error: "Sign in as the admin to continue." },
    unchanged: true,
  },
  {
    name: "update settings from a foreign Origin with the session: 403, nothing changes",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: settings,
    headers: { origin: "https://evil.example" },
    status: 403,
    unchanged: true,
  },
  {
    name: "update settings marked cross-site with the session: 403, nothing changes",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: settings,

    headers: { origin: null, "sec-fetch-site": "cross-site" },
    status: 403,
    unchanged: true,
  },
  {
    name: "a banner platform other than a or b: 422",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: { ...settings, bannerPlatform: "c" },
    status: 422,
    unchanged: true,
  },
  {
    name: "a platform without a name: 422",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings",
    body: { ...settings, platformA: { name: "", url: "x" } },
    status: 422,
    unchanged: true,
  },
]);

describe("settings admin API as the admin", () => {
  test("read, update, and the brand shows on the public pages", async () => {
    const api = await scenarioApp({ admin: true });
    await api.check({ who: "admin", path: "/api/admin/settings", status: 200, contains: { brandName: "Cam Guide" } });
    await api.check({ who: "admin", method: "PUT", path: "/api/admin/settings", body: settings, status: 200 });
    expect((await renderPage(api.request, "/")).title).toEndWith("| Velvet Start");
    await api.check({ path: "/api/settings", status: 200, json: settings });
  });
});

describe("the site's public address", () => {
  const address = "/api/admin/settings/address";

  /** Signs in through `origin` (the Host the request reached and its Origin header, as a browser there sends). */
  const signInAt = (app: { app: { handle: (request: Request) => Promise<Response> } }, origin: string) =>
    app.app.handle(
      new Request(`${origin}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify(ADMIN),
      }),
    );

  test("none at first; the admin's first sign-in at a public address records it", async () => {
    const t = await adminApp();
    const { request, asAdmin } = t;
    // adminApp signed in from http://localhost, which only this machine reaches: not recorded.
    expect(await (await asAdmin(address)).json()).toEqual({ origin: null, source: "none" });
    expect((await signInAt(t, "https://guide.example.com")).status).toBe(200);
    expect(await (await asAdmin(address)).json()).toEqual({ origin: "https://guide.example.com", source: "sign-in" });
    expect((await renderPage(request, "/learn")).link("canonical")).toBe("https://guide.example.com/learn");
    expect(await (await request("/robots.txt")).text()).toContain("Sitemap: https://guide.example.com/sitemap.xml");
    expect((await request("/sitemap.xml")).status).toBe(200);
    // Forgetting it: relative links again, and no sitemap.
    expect((await asAdmin(address, { method: "DELETE" })).status).toBe(200);
    expect((await renderPage(request, "/learn")).link("canonical")).toBe("/learn");
    expect((await request("/sitemap.xml")).status).toBe(404);
  });

  test.each([
    "http://localhost:3000",
    "http://127.0.0.1:3000",
    "http://[::1]:3000",
    "http://192.168.1.20",
    "http://10.0.0.5:8080",
    "http://172.20.0.3",
    "http://cam-guide:3000",
    "http://mybox.local",
    "http://guide.localhost",
  ])("a sign-in at %s (a local address) records nothing: visitors could not follow its links", async (origin) => {
    const t = await adminApp();
    expect((await signInAt(t, origin)).status).toBe(200);
    expect(await (await t.asAdmin(address)).json()).toEqual({ origin: null, source: "none" });
    expect((await t.request("/sitemap.xml")).status).toBe(404);
  });

  test("a later sign-in from another address moves an unconfirmed address, never a confirmed one", async () => {
    const t = await adminApp();
    const { asAdmin } = t;
    expect((await signInAt(t, "https://first.example.com")).status).toBe(200);
    expect((await (await asAdmin(address)).json()).origin).toBe("https://first.example.com");
    // A foreign Origin is refused by the same-site check and records nothing.
    const foreign = await t.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify(ADMIN),
    });
    expect(foreign.status).toBe(403);
    expect((await signInAt(t, "https://second.example.com")).status).toBe(200);
    expect((await (await asAdmin(address)).json()).origin).toBe("https://second.example.com");
    await asAdmin(address, { method: "PUT", json: { origin: "https://guide.example.com/" } });
    expect(await (await asAdmin(address)).json()).toEqual({ origin: "https://guide.example.com", source: "confirmed" });
    expect((await signInAt(t, "https://third.example.com")).status).toBe(200);
    expect((await (await asAdmin(address)).json()).origin).toBe("https://guide.example.com");
  });

  test("a change empties the page cache", async () => {
    const t = await adminApp();
    const { request, asAdmin } = t;
    await signInAt(t, "https://first.example.com");
    expect((await renderPage(request, "/learn")).link("canonical")).toBe("https://first.example.com/learn");
    await asAdmin(address, { method: "PUT", json: { origin: "https://guide.example.com" } });
    const page = await renderPage(request, "/learn");
    expect(page.link("canonical")).toBe("https://guide.example.com/learn");
    expect(page.meta("og:url")).toBe("https://guide.example.com/learn");
    // The legal pages name it as where the operator's contact details are published.
    expect((await renderPage(request, "/privacy")).text).toContain(
      "contact details published at https://guide.example.com.",
    );
  });

  test("PUBLIC_URL wins, and the address cannot be changed here", async () => {
    const { asAdmin } = await adminApp({ publicUrl: "https://env.example.com" });
    expect(await (await asAdmin(address)).json()).toEqual({ origin: "https://env.example.com", source: "environment" });
    const res = await asAdmin(address, { method: "PUT", json: { origin: "https://guide.example.com" } });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toContain("PUBLIC_URL");
  });
});

runScenarios("saving the public address", [
  ...[
    "https://example.com/blog",
    "https://example.com?x=1",
    "https://example.com#top",
    "https://user:pw@example.com",
    "ftp://example.com",
    "javascript:alert(1)",
    "example.com",
    "https://exa mple.com",
    "https://example.com:99999",
    "https://[::1",
    "https://evil.example\n.com",
    "//example.com",
    "",
    `https://${"a".repeat(300)}.com`,
  ].map((origin) => ({
    name: `refuses ${JSON.stringify(origin).slice(0, 40)}`,
    who: "admin" as const,
    method: "PUT" as const,
    path: "/api/admin/settings/address",
    body: { origin },
    status: 422,
    check: (res: { json: <T>() => T }) =>
      expect(res.json<{ details: unknown[] }>().details).toEqual([{ field: "origin", message: expect.any(String) }]),
    unchanged: ["site_settings"],
  })),
  {
    name: "refuses a body without an origin",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings/address",
    body: {},
    status: 422,
    unchanged: ["site_settings"],
  },
  {
    name: "accepts an origin with a port, in its canonical form",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings/address",
    body: { origin: "HTTP://Guide.Example.com:8080/" },
    status: 200,
    json: { origin: "http://guide.example.com:8080", source: "confirmed" },
  },
  {
    name: "guests cannot read it",
    path: "/api/admin/settings/address",
    status: 401,
  },
  {
    name: "another site cannot change it",
    who: "admin",
    method: "PUT",
    path: "/api/admin/settings/address",
    body: { origin: "https://guide.example.com" },
    headers: { origin: "https://evil.example" },
    status: 403,
    unchanged: true,
  },
]);
