import { afterEach, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { StorageState } from "#server/lib/storage-health.ts";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { MediaUploader } from "./uploaders.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

// A real 1×1 PNG.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

async function pick(during: StorageState) {
  let state: StorageState = { ok: true };
  const storage = { check: () => state, recheck: () => state, roomFor: () => state };
  const app = await adminApp({ storage });
  state = during;
  routeFetchTo(app.asAdmin);
  const changes: (string | null)[] = [];
  renderAt("/admin", <MediaUploader value={null} onChange={(url) => changes.push(url)} label="Image" />);
  fireEvent.change(screen.getByLabelText("Image"), {
    target: { files: [new File([PNG], "photo.png", { type: "image/png" })] },
  });
  await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
  return { app, changes, toast: useToastStore.getState().toasts[0]! };
}

test("an image picked in the admin is sent as the server expects and stored", async () => {
  const { app, changes, toast } = await pick({ ok: true });
  expect(toast.title).toBe("Upload successful");
  expect(changes).toHaveLength(1);
  expect(changes[0]).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.png$/);
  expect(readdirSync(app.uploadsDir)).toEqual([changes[0]!.split("/").pop()!]);
});

test("when the disk is full, the admin reads the server's reason, and nothing is stored", async () => {
  const { app, changes, toast } = await pick({
    ok: false,
    status: 507,
    reason: "the disk holding the data is full (0 KB free)",
  });
  expect(toast.title).toBe("Upload failed");
  expect(toast.description).toBe("Nothing was saved: the disk holding the data is full (0 KB free). Try again later.");
  expect(changes).toEqual([]);
  expect(readdirSync(app.uploadsDir)).toEqual([]);
});
