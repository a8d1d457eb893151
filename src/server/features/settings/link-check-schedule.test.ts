import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openMemoryDatabase } from "#server/db/client.ts";
import type { LinkCheckSchedule } from "#shared/features/settings/link-checks.ts";
import { adminApp } from "#tests/support/admin.ts";
import { settingsInput } from "#tests/support/admin-inputs.ts";
import { createSettings } from "#tests/support/factories.ts";
import { renderPage } from "#tests/support/page.ts";
import { LinkCheckSchedules, type LinkCheckTimer } from "./link-check-schedule.ts";
import { siteSettings } from "./table.ts";

const PATH = "/api/admin/settings/link-checks";

/** A timer that records what it was asked to do. */
function fakeTimer(): LinkCheckTimer & { calls: (number | "stop")[] } {
  const calls: (number | "stop")[] = [];
  let hours: number | null = null;
  return {
    calls,
    schedule(h) {
      calls.push(h);
      hours = h;
    },
    stop() {
      calls.push("stop");
      hours = null;
    },
    get scheduledHours() {
      return hours;
    },
  };
}

async function scheduleApp(linkCheckInterval?: number | null) {
  const t = await adminApp({ seed: false, linkCheckInterval });
  await createSettings(t.db);
  const get = async () => (await (await t.asAdmin(PATH)).json()) as LinkCheckSchedule;
  const put = (hours: unknown) => t.asAdmin(PATH, { method: "PUT", json: { hours } });
  const stored = async () =>
    (await t.db.select({ hours: siteSettings.linkCheckHours }).from(siteSettings).where(eq(siteSettings.id, 1)))[0]
      ?.hours;
  return { ...t, get, put, stored };
}

describe("the link-check schedule in Settings", () => {
  test("a choice saved in Settings reschedules the running checks at once; off stops them; none follows the default", async () => {
    const t = await scheduleApp();
    // The test server has no default schedule (nothing runs on its own in tests).
    expect(await t.get()).toEqual({ hours: null, source: "default", stored: null, defaultHours: null });
    try {
      const daily = await t.put(24);
      expect(daily.status).toBe(200);
      // `hours` is what the server's timer runs now, read back from it.
      expect(await daily.json()).toEqual({ hours: 24, source: "settings", stored: 24, defaultHours: null });
      expect(await t.stored()).toBe(24);
      expect(await t.get()).toMatchObject({ hours: 24, source: "settings" });
      expect((await t.put(6)).status).toBe(200);
      expect(await t.get()).toMatchObject({ hours: 6, source: "settings" });
      expect(await (await t.put(0)).json()).toEqual({ hours: null, source: "settings", stored: 0, defaultHours: null });
      expect(await (await t.put(null)).json()).toMatchObject({ hours: null, source: "default", stored: null });
      expect(await t.stored()).toBeNull();
    } finally {
      await t.put(null);
    }
  });

  test("LINK_CHECK_INTERVAL set on the server wins: shown as such, and a change here is refused and stores nothing", async () => {
    const t = await scheduleApp(12);
    expect(await t.get()).toEqual({ hours: 12, source: "environment", stored: null, defaultHours: 12 });
    const refused = await t.put(24);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toContain("set by LINK_CHECK_INTERVAL on the server");
    expect(await t.stored()).toBeNull();
    expect(await t.get()).toMatchObject({ hours: 12, source: "environment" });
    // Set to off on the server: off, whatever Settings say.
    const off = await scheduleApp(null);
    expect(await off.get()).toMatchObject({ hours: null, source: "environment" });
    expect((await off.put(24)).status).toBe(409);
  });

  test.each([-1, 8761, 1.5, "daily", true, undefined])("hours %p: 422 at the field, nothing changes", async (hours) => {
    const t = await scheduleApp();
    const res = await t.put(hours);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { details: { field: string; message: string }[] };
    expect(body.details[0]?.message).toContain("Choose how often links are checked");
    expect(await t.stored()).toBeNull();
    expect(await t.get()).toMatchObject({ hours: null, source: "default" });
  });

  test("without the admin's session: 401, nothing changes", async () => {
    const t = await scheduleApp();
    const res = await t.request(PATH, {
      method: "PUT",
      headers: { origin: "http://localhost", "content-type": "application/json" },
      body: JSON.stringify({ hours: 24 }),
    });
    expect(res.status).toBe(401);
    expect(await t.stored()).toBeNull();
  });

  test("at start: the value saved in Settings is applied, else the default; the environment's value without reading them", async () => {
    const db = openMemoryDatabase().db;
    await createSettings(db, { linkCheckHours: 72 });
    const timer = fakeTimer();
    const schedules = new LinkCheckSchedules({ db, timer, environment: undefined, fallback: 168 });
    // The default runs until the settings are read.
    expect(timer.scheduledHours).toBe(168);
    await schedules.load();
    expect(timer.calls).toEqual([168, 72]);
    expect(schedules.describe()).toEqual({ hours: 72, source: "settings", stored: 72, defaultHours: 168 });

    await db.update(siteSettings).set({ linkCheckHours: 0 });
    const offTimer = fakeTimer();
    await new LinkCheckSchedules({ db, timer: offTimer, environment: undefined, fallback: 168 }).load();
    expect(offTimer.scheduledHours).toBeNull();

    const envTimer = fakeTimer();
    await new LinkCheckSchedules({ db, timer: envTimer, environment: 24, fallback: 24 }).load();
    expect(envTimer.calls).toEqual([24]);
  });
});

describe("a saved setting shows at once on every page", () => {
  test("brand, banner platform and disclosure wording: the cached pages show the new ones on their next request", async () => {
    const t = await adminApp();
    const pages = ["/", "/blog", "/quiz/earnings", "/learn"];
    // Each page rendered (and cached) first.
    for (const path of pages) expect((await renderPage(t.request, path)).title).toEndWith("| Cam Guide");
    const current = await (await t.asAdmin("/api/admin/settings")).json();
    const res = await t.asAdmin("/api/admin/settings", {
      method: "PUT",
      json: {
        ...current,
        ...settingsInput({ platformA: current.platformA, platformB: { ...current.platformB, name: "Beta" } }),
        brandName: "Velvet Start",
        bannerPlatform: "b",
        disclosureWording: { sponsored: "Paid placement" },
      },
    });
    expect(res.status).toBe(200);
    for (const path of pages) expect((await renderPage(t.request, path)).title).toEndWith("| Velvet Start");
    const banner = (await renderPage(t.request, "/quiz/earnings")).screen.getByRole("complementary", {
      name: "Sponsored",
    });
    expect(banner.textContent).toContain("Paid placement");
    expect(banner.textContent).toContain("Join Beta today");
  });
});
