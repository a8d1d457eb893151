import { describe, expect, test } from "bun:test";
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
