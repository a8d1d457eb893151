import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { messageAt } from "#tests/support/field-message.ts";
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

test("a new page: its address is checked by the server at the field, then it is made with its footer link", async () => {
  const { asAdmin, database } = await adminApp();
  routeFetchTo(asAdmin);
  const { location } = renderAt("/admin/pages/new", <PagesTab record="new" />);
  const ADDRESS = "Address (after the site's address and a slash, such as about-us)";
  const address = screen.getByLabelText(ADDRESS);
  fireEvent.change(address, { target: { value: "quiz" } });
  fireEvent.change(screen.getByLabelText("Title"), { target: { value: "About us" } });
  fireEvent.change(screen.getByLabelText("Description (shown in search results)"), {
    target: { value: "Who writes this guide, and why." },
  });
  fireEvent.change(screen.getByLabelText("Text"), { target: { value: "We write what we wish we had known." } });
  expect((screen.getByLabelText("Link to it in every page's footer") as HTMLInputElement).checked).toBe(true);
  fireEvent.click(screen.getByRole("button", { name: "Create Page" }));
  await messageAt(ADDRESS, "The site uses /quiz already: choose another address");

  fireEvent.change(address, { target: { value: "about-us" } });
  fireEvent.click(screen.getByRole("button", { name: "Create Page" }));
  await waitFor(() => expect(location.history.at(-1)).toBe("/admin/pages"));
  expect(database.sqlite.query("SELECT title, in_footer AS f FROM site_pages WHERE slug = 'about-us'").get()).toEqual({
    title: "About us",
    f: 1,
  });
});
