import { expect, test } from "bun:test";
import { adminApp } from "#tests/support/admin.ts";
import { offerInput } from "#tests/support/admin-inputs.ts";

const offer = offerInput({ videoUrl: "https://example.com/page" });

test("a video URL we cannot play: 422 naming videoUrl, on create and on update", async () => {
  const { asAdmin, database } = await adminApp();
  const details = [{ field: "videoUrl", message: "Use a YouTube or Vimeo link, or a direct MP4, WebM or Ogg file" }];
  const created = await asAdmin("/api/admin/affiliate-offer", { method: "POST", json: offer });
  expect(created.status).toBe(422);
  expect(await created.json()).toEqual({ error: "The video URL is not one we can play.", details });
  const { id } = database.sqlite.query("SELECT id FROM affiliate_offers LIMIT 1").get() as { id: number };
  const updated = await asAdmin(`/api/admin/affiliate-offer/${id}`, {
    method: "PUT",
    json: { ...offer, videoUrl: "ftp://example.com/a.mp4" },
  });
  expect(updated.status).toBe(422);
  expect((await updated.json()).details).toEqual(details);
});
