import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { PagesTab } from "./admin-pages.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

test("the built-in pages offer no Delete; Reset asks first, then puts the shipped text back", async () => {
  const { asAdmin, database } = await adminApp();
  routeFetchTo(asAdmin);
  const body = () =>
    (database.sqlite.query("SELECT body_markdown AS md FROM site_pages WHERE slug = 'terms'").get() as { md: string })
      .md;
  const shipped = body();
  database.sqlite.run(
    "UPDATE site_pages SET body_markdown = 'Be kind.', body = '<p>Be kind.</p>' WHERE slug = 'terms'",
  );
  renderAt("/admin/pages", <PagesTab />);
  const reset = await screen.findByRole("button", { name: /^Reset to shipped text of Terms/ });
  expect(screen.queryByRole("button", { name: /^Delete/ })).toBeNull();
  expect(screen.getAllByRole("button", { name: /^Edit / })).toHaveLength(2);

  fireEvent.click(reset);
  const dialog = within(screen.getByRole("dialog", { name: "Reset to the shipped text" }));
  expect(dialog.getByText(/your changes to it are lost/)).toBeTruthy();
  fireEvent.click(dialog.getByRole("button", { name: "Cancel" }));
  expect(body()).toBe("Be kind.");

  fireEvent.click(reset);
  fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Reset" }));
  await waitFor(() => expect(useToastStore.getState().toasts[0]?.description).toBe("Page reset to the shipped text"));
  expect(body()).toBe(shipped);
});
