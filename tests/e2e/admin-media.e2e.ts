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
    expect((await answer).status()).toBe(201);
    // The library calls it by the name it was uploaded with.
    return `photo-${width}.jpg`;
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
    await page.evaluate(
      async (name) =>
        ((await (await fetch("/api/admin/media")).json()) as { url: string; originalName: string }[]).find(
          (m) => m.originalName === name,
        )!.url,
      used,
    ),
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
  const stored = ((await (await answer).json()) as { url: string }).url.split("/").pop()!;
  // Removed from the folder behind the server's back; the library calls it by the name it came with.
  rmSync(join(site.dataDir, "uploads", stored));
  const name = "gone.jpg";
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

test("the library finds an upload by the name it came with, and the same file uploaded again is the item it has", async ({
  page,
  visit,
  scan,
}) => {
  await signIn(page);
  await visit("/admin/media");
  const bytes = Buffer.from(await testImage(900, 600));
  const send = async (name: string) => {
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/upload") && r.request().method() === "POST");
    await page.getByLabel("Upload a file").setInputFiles({ name, mimeType: "image/jpeg", buffer: bytes });
    return (await answer).status();
  };
  expect(await send("webcam.jpg")).toBe(201);
  await page.getByLabel("Search").fill("webcam");
  const found = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "webcam.jpg" }) });
  await expect(found).toHaveCount(1);
  await expect(page.getByText(/1 of \d+ files? match/)).toBeVisible();
  await scan();

  expect(await send("webcam (1).jpg")).toBe(200);
  await expect(page.getByTestId("toast")).toContainText("Already in the library");
  await page.getByLabel("Search").fill("webcam");
  await expect(page.getByRole("article")).toHaveCount(1);
});
