import { afterEach, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { adminApp } from "#tests/support/admin.ts";
import { createOffer } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { testImage, uploadForm } from "#tests/support/images.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi, at, uploadApi } from "#web/admin/admin-client.ts";
import { ImageUploader } from "#web/features/media/uploaders.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { MediaTab } from "./admin-media.tsx";
import { MediaPicker, type PickedMedia } from "./media-picker.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

/** The admin's app with two uploads: a ring light used by an offer, and an unused desk photo. */
async function library() {
  const app = await adminApp({ seed: false });
  const upload = async (width: number, name: string) =>
    (await (
      await app.asAdmin(uploadApi, { method: "POST", body: uploadForm(await testImage(width, 600), name) })
    ).json()) as {
      url: string;
      id: number;
    };
  const ring = await upload(1200, "ring-light.jpg");
  const desk = await upload(800, "desk.jpg");
  await app.asAdmin(at(adminApi.media, { id: ring.id }), { method: "PUT", json: { alt: "A ring light on a stand" } });
  await app.asAdmin(at(adminApi.media, { id: desk.id }), { method: "PUT", json: { alt: "A tidy desk" } });
  await createOffer(app.db, { title: "Ring light deal", imageUrl: ring.url });
  routeFetchTo(app.asAdmin);
  return { app, ring, desk };
}

const cards = () => screen.getAllByRole("article");

test("the library lists every upload with its size and use, and search narrows it", async () => {
  await library();
  renderAt("/admin/media", <MediaTab />);
  await waitFor(() => expect(cards()).toHaveLength(2));
  const ringCard = cards().find((c) => within(c).queryByRole("link", { name: "Offer “Ring light deal” (image)" }))!;
  expect(ringCard.textContent).toContain("1200 × 600");
  expect(ringCard.querySelector("img")!.getAttribute("src")).toMatch(/-w480\.webp$/);
  fireEvent.change(screen.getByLabelText("Search"), { target: { value: "desk" } });
  expect(cards()).toHaveLength(1);
  expect(screen.getByText("1 of 2 files match “desk”.")).toBeTruthy();
  // The name the file was uploaded with is shown and searched.
  fireEvent.change(screen.getByLabelText("Search"), { target: { value: "ring-light" } });
  expect(cards()).toHaveLength(1);
  expect(within(cards()[0]!).getByRole("heading", { name: "ring-light.jpg" })).toBeTruthy();
  // Where it is used is searched too.
  fireEvent.change(screen.getByLabelText("Search"), { target: { value: "ring light deal" } });
  expect(cards()).toHaveLength(1);
  expect(within(cards()[0]!).getByText("Used in:")).toBeTruthy();
});

test("deleting an unused upload asks, then removes it; a used one warns where it is used first", async () => {
  const { app, ring, desk } = await library();
  renderAt("/admin/media", <MediaTab />);
  await waitFor(() => expect(cards()).toHaveLength(2));
  const deskName = desk.url.split("/").pop()!;
  fireEvent.click(screen.getByRole("button", { name: "Delete desk.jpg" }));
  expect(screen.getByRole("heading", { name: "Delete this upload?" })).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Delete" }));
  await waitFor(() => expect(cards()).toHaveLength(1));
  expect(readdirSync(app.uploadsDir).some((n) => n.startsWith(deskName.slice(0, 22)))).toBe(false);

  expect(ring.url).toMatch(/^\/uploads\//);
  fireEvent.click(screen.getByRole("button", { name: "Delete ring-light.jpg" }));
  expect(screen.getByRole("heading", { name: "This file is in use" })).toBeTruthy();
  const dialog = screen.getByRole("heading", { name: "This file is in use" }).closest("article")!;
  expect(within(dialog).getByRole("link", { name: "Offer “Ring light deal” (image)" }).getAttribute("href")).toMatch(
    /^\/admin\/offers\/\d+$/,
  );
  fireEvent.click(within(dialog).getByRole("button", { name: "Delete anyway" }));
  await waitFor(() =>
    expect(screen.queryAllByRole("article").filter((a) => a.className === "media-card")).toHaveLength(0),
  );
  expect(readdirSync(app.uploadsDir)).toEqual([]);
});

test("the picker hands back the chosen image with its alt text and size", async () => {
  const { ring } = await library();
  const picked: PickedMedia[] = [];
  renderAt("/admin/posts/new", <MediaPicker open onPick={(item) => picked.push(item)} onClose={() => {}} />);
  const choose = await screen.findByRole("button", { name: "Choose A ring light on a stand" });
  fireEvent.change(screen.getByLabelText("Search"), { target: { value: "desk" } });
  expect(screen.queryByRole("button", { name: "Choose A ring light on a stand" })).toBeNull();
  fireEvent.change(screen.getByLabelText("Search"), { target: { value: "" } });
  fireEvent.click(await screen.findByRole("button", { name: "Choose A ring light on a stand" }));
  expect(choose).toBeTruthy();
  expect(picked).toEqual([{ id: ring.id, url: ring.url, alt: "A ring light on a stand", width: 1200, height: 600 }]);
});

test("an image field offers the library next to uploading: the chosen image becomes its value", async () => {
  const { desk } = await library();
  const changes: (string | null)[] = [];
  renderAt("/admin/products", <ImageUploader label="Image" value={null} onChange={(url) => changes.push(url)} />);
  fireEvent.click(screen.getByRole("button", { name: "Choose from library for Image" }));
  fireEvent.click(await screen.findByRole("button", { name: "Choose A tidy desk" }));
  expect(changes).toEqual([desk.url]);
});

test("an entry whose file went missing says so, is not offered in the picker, and can be deleted", async () => {
  const { app, desk } = await library();
  const deskName = desk.url.split("/").pop()!;
  rmSync(join(app.uploadsDir, deskName));
  renderAt("/admin/media", <MediaTab />);
  await waitFor(() => expect(cards()).toHaveLength(2));
  const deskCard = cards().find((c) => c.textContent?.includes("desk.jpg"))!;
  expect(deskCard.textContent).toContain("The file is missing from the uploads folder");
  expect(deskCard.querySelector("img")).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: "Delete desk.jpg" }));
  expect(
    screen.getByText(`desk.jpg is not used anywhere and its file is already missing.`, { exact: false }),
  ).toBeTruthy();
  fireEvent.click(screen.getByRole("button", { name: "Delete" }));
  await waitFor(() => expect(cards()).toHaveLength(1));
  expect(readdirSync(app.uploadsDir).some((n) => n.startsWith(deskName.slice(0, 22)))).toBe(false);
  cleanup();

  rmSync(join(app.uploadsDir, readdirSync(app.uploadsDir).find((n) => n.endsWith(".jpg"))!));
  renderAt("/admin/posts/new", <MediaPicker open onPick={() => {}} onClose={() => {}} />);
  expect(await screen.findByText("No images yet.")).toBeTruthy();
});
