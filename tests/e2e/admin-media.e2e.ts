import { rmSync } from "node:fs";
import { join } from "node:path";
import { testImage } from "../support/images.ts";
import { expect, signIn, test } from "./fixtures.ts";

// The media library: upload, delete an unused file, and the warning for one in use.
// It changes content, so each journey runs on a site of its own (playwright.config.ts).
test.describe.configure({ timeout: 60_000 });

test("an upload lands in the library; an unused one is deleted, a used one warns where it is used", async ({
  page,
  visit,
  scan,
}) => {
  await signIn(page);
  await visit("/admin/media");
  const upload = async (width: number) => {
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/upload") && r.request().method() === "POST");
    await page.getByLabel("Upload a file").setInputFiles({
      name: `photo-${width}.jpg`,
      mimeType: "image/jpeg",
      buffer: Buffer.from(await testImage(width, 1000)),
    });
    const { url } = (await (await answer).json()) as { url: string };
    return url.split("/").pop()!;
  };
  const unused = await upload(2000);
  const used = await upload(1200);
  const card = (name: string) => page.getByRole("article").filter({ has: page.getByRole("heading", { name }) });
  await expect(card(unused)).toContainText("2000 × 1000");
  // Its thumbnail is the smallest copy, not the 2000 px original.
  await expect(card(unused).locator("img")).toHaveAttribute("src", /-w480\.webp$/);

  // A product shows the second image.
  const made = await page.evaluate(
    async (imageUrl) =>
      (
        await fetch("/api/admin/recommended-product", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            id: "media-journey-light",
            name: "Media journey light",
            description: "A light used by the media journey.",
            link: "https://example.com/light",
            price: "$20",
            imageUrl,
            badge: "ESSENTIAL",
            archetype: "Couple",
            isDefault: false,
          }),
        })
      ).status,
    `/uploads/${used}`,
  );
  expect(made).toBe(201);
  // The list is read again: the second image is now used.
  await page.reload();
  await expect(card(used)).toContainText("Used in:");

  await card(unused)
    .getByRole("button", { name: `Delete ${unused}` })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Delete this upload?" })).toBeVisible();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Upload deleted");
  await expect(card(unused)).toHaveCount(0);
  expect((await page.request.get(`/uploads/${unused}`)).status()).toBe(404);

  await card(used)
    .getByRole("button", { name: `Delete ${used}` })
    .click();
  await expect(dialog.getByRole("heading", { name: "This file is in use" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Product “Media journey light” (image)" })).toBeVisible();
  await scan();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(card(used)).toBeVisible();

  // A phone: the library fits.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(card(used)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("an entry whose file went missing says so and can be deleted", async ({ page, visit, scan, site }) => {
  await signIn(page);
  await visit("/admin/media");
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/upload") && r.request().method() === "POST");
  await page.getByLabel("Upload a file").setInputFiles({
    name: "gone.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from(await testImage(1000, 600)),
  });
  const name = ((await (await answer).json()) as { url: string }).url.split("/").pop()!;
  // Removed from the folder behind the server's back.
  rmSync(join(site.dataDir, "uploads", name));
  await page.reload();
  const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toContainText("File missing");
  await expect(card).toContainText("The file is missing from the uploads folder");
  await expect(card.locator("img")).toHaveCount(0);
  await scan();
  await card.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("its file is already missing");
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Upload deleted");
  await expect(card).toHaveCount(0);
});
