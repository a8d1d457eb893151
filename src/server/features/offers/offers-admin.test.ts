import { describe, expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { offerInput } from "#tests/support/admin-inputs.ts";
import { createOffer } from "#tests/support/factories.ts";
import { runAdminRefusals, runScenarios, type Scenario, scenarioApp } from "#tests/support/scenario.ts";

const offer = offerInput({ videoUrl: "https://youtu.be/dQw4w9WgXcQ" });

const rows: Scenario["setup"] = async ({ db }) => ({ offer: (await createOffer(db, { moduleId: 2 })).id });

runAdminRefusals("offers", { record: "offer", path: "/api/admin/affiliate-offer", body: offer }, rows);

runScenarios(
  "an offer with a bad field: 422, nothing stored",
  (
    [
      ...[0, 11, 1.5, "2"].map((moduleId) => [`moduleId ${JSON.stringify(moduleId)}`, { moduleId }] as const),
      ["a link that is not a URL", { linkUrl: "not a url" }],
      ["a video URL of no known player", { videoUrl: "https://example.com/page" }],
    ] as const
  ).map(
    ([name, fields]): Scenario => ({
      name,
      who: "admin",
      method: "POST",
      path: "/api/admin/affiliate-offer",
      body: { ...offer, ...fields },
      status: 422,
      rows: { affiliate_offers: 0 },
    }),
  ),
);

describe("offers admin API as the admin", () => {
  test("an offer as the admin list gives it can be sent back unchanged (the server's own fields are ignored)", async () => {
    const t = await adminApp();
    const [listed] = (await (await t.asAdmin("/api/admin/affiliate-offers")).json()) as Record<string, unknown>[];
    const { id, createdAt: _c, updatedAt: _u, ...fields } = listed!;
    const sent = await t.asAdmin(`/api/admin/affiliate-offer/${id}`, {
      method: "PUT",
      json: { ...fields, descriptionHtml: "<p>not what the description says</p>" },
    });
    expect(sent.status).toBe(200);
    const saved = (await sent.json()) as { description: string; descriptionHtml: string };
    expect(saved.descriptionHtml).not.toContain("not what the description says");
    expect(saved.descriptionHtml).toContain(saved.description.slice(0, 20));
  });

  test("create for module 2 and see it publicly first; embed mode drops media; inactive leaves the public list; unknown 404", async () => {
    const api = await scenarioApp({ admin: true });
    await createOffer(api.db, { moduleId: 2, createdAt: new Date("2025-01-01") });
    const created = (
      await api.check({
        who: "admin",
        method: "POST",
        path: "/api/admin/affiliate-offer",
        body: offer,
        status: 201,
        rows: { affiliate_offers: 1 },
      })
    ).json<{ id: number }>();
    const publicOffers = (await api.check({ path: "/api/module/2/affiliate-offers", status: 200 })).json<
      { id: number }[]
    >();
    expect(publicOffers[0]!.id).toBe(created.id);

    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/admin/affiliate-offer",
      body: { ...offer, useEmbed: true, embedCode: "<b>hi</b>", imageUrl: "/x.png" },
      status: 201,
      contains: { imageUrl: null, videoUrl: null, embedCode: "<b>hi</b>" },
    });
    await api.check({
      who: "admin",
      method: "POST",
      path: "/api/admin/affiliate-offer",
      body: { ...offer, videoUrl: "https://" },
      status: 201,
      contains: { videoUrl: null },
    });

    await api.check({
      who: "admin",
      method: "PUT",
      path: `/api/admin/affiliate-offer/${created.id}`,
      body: { ...offer, isActive: false },
      status: 200,
    });
    const after = (await api.check({ path: "/api/module/2/affiliate-offers", status: 200 })).json<{ id: number }[]>();
    expect(after.map((o) => o.id)).not.toContain(created.id);
    await api.check({
      who: "admin",
      method: "DELETE",
      path: "/api/admin/affiliate-offer/99999",
      status: 404,
      rows: { affiliate_offers: 0 },
    });
  });
});
