import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage, messageAt } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { SettingsTab } from "./admin-settings.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

test("each platform's problems show at its own name and URL fields, before anything is sent", async () => {
  const { asAdmin, database } = await adminApp();
  const sent: string[] = [];
  routeFetchTo((path, init) => {
    sent.push(`${init?.method ?? "GET"} ${path}`);
    return asAdmin(path, init);
  });
  const before = database.sqlite.query("SELECT * FROM site_settings").get();
  renderAt("/admin", <SettingsTab />);
  fireEvent.change(await screen.findByLabelText("Platform 1 sign-up URL"), { target: { value: "nope" } });
  fireEvent.change(screen.getByLabelText("Platform 2 name"), { target: { value: "" } });
  fireEvent.click(screen.getByRole("button", { name: "Save Settings" }));
  await messageAt("Platform 1 sign-up URL", "Must be a valid URL");
  expect(fieldMessage("Platform 2 name")).toBe("Platform name is required");
  expect([fieldMessage("Platform 1 name"), fieldMessage("Platform 2 sign-up URL"), fieldMessage("Brand name")]).toEqual(
    [null, null, null],
  );
  expect(sent).toEqual(["GET /api/admin/settings"]);
  expect(database.sqlite.query("SELECT * FROM site_settings").get()).toEqual(before);
});
