import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { adminApp } from "#tests/support/admin.ts";
import { createLink } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { LinksTab } from "./admin-links.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

// The real app answers each write and the list is fetched again.
const LONG = { timeout: 5000 };

/** The admin's app with two links (a small list: queries over a long table are slow here). */
async function linksApp() {
  const t = await adminApp({ seed: false });
  await createLink(t.db, {
    slug: "platform-one",
    destination: "https://example.com/platform-one",
    notes: "Platform 1",
  });
  await createLink(t.db, { slug: "platform-two", destination: "https://example.org/platform-two" });
  return t;
}

/** Resolves once `value()` is the new destination (polled every 20 ms, for at most 5 s). */
async function until(value: () => unknown) {
  const deadline = Date.now() + 5000;
  while (JSON.stringify(value()) !== JSON.stringify({ destination: "https://new.example/join" })) {
    if (Date.now() > deadline) throw new Error("the link was not saved");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const row = (slug: string) => screen.getByText(`/go/${slug}`).closest("tr") as HTMLElement;

test("lists the links; a bad fallback is refused at its field before anything is sent", async () => {
  const { asAdmin, database } = await linksApp();
  const sent: string[] = [];
  routeFetchTo((path, init) => {
    sent.push(`${init?.method ?? "GET"} ${path}`);
    return asAdmin(path, init);
  });
  renderAt("/admin/links", <LinksTab />);
  await screen.findByText("/go/platform-one");
  expect(within(row("platform-one")).getByText("https://example.com/platform-one")).toBeTruthy();
  expect(within(row("platform-one")).getByText("Active")).toBeTruthy();
  expect(within(row("platform-one")).getByText("None")).toBeTruthy();

  fireEvent.click(within(row("platform-one")).getByRole("button", { name: "Edit platform-one" }));
  const dialog = await screen.findByRole("dialog", { name: "Edit Link" });
  fireEvent.change(within(dialog).getByLabelText("Fallback destination (optional)"), {
    target: { value: "javascript:alert(1)" },
  });
  fireEvent.click(within(dialog).getByRole("button", { name: "Update Link" }));
  await waitFor(() =>
    expect(fieldMessage("Fallback destination (optional)")).toContain("starting with http:// or https://"),
  );
  expect(sent.filter((call) => !call.startsWith("GET "))).toEqual([]);
  expect(database.sqlite.query("SELECT fallback_destination FROM links WHERE slug = 'platform-one'").get()).toEqual({
    fallback_destination: null,
  });
});

test("an edit is saved: the list shows it and /go/ follows it", async () => {
  const { asAdmin, request, database } = await linksApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  renderAt("/admin/links", <LinksTab />);
  await screen.findByText("/go/platform-one");
  fireEvent.click(within(row("platform-one")).getByRole("button", { name: "Edit platform-one" }));
  const dialog = await screen.findByRole("dialog", { name: "Edit Link" });
  fireEvent.change(within(dialog).getByLabelText("Fallback destination (optional)"), {
    target: { value: "https://fallback.example/" },
  });
  fireEvent.change(within(dialog).getByLabelText("Destination"), { target: { value: "https://new.example/join" } });
  fireEvent.click(within(dialog).getByRole("button", { name: "Update Link" }));
  // Polled by hand: Testing Library's waitFor, started at once here, held the save back for seconds.
  await until(() => database.sqlite.query("SELECT destination FROM links WHERE slug = 'platform-one'").get());
  await waitFor(() => expect(document.querySelector("dialog")).toBeNull(), LONG);
  await waitFor(() => expect(within(row("platform-one")).getByText("https://new.example/join")).toBeTruthy(), LONG);
  expect(within(row("platform-one")).getByText("https://fallback.example/")).toBeTruthy();
  expect((await request("/go/platform-one")).headers.get("location")).toBe("https://new.example/join");
});

test("Deactivate turns a link off (clicks go to its fallback or back), Activate on again", async () => {
  const { asAdmin, request } = await linksApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  renderAt("/admin/links", <LinksTab />);
  await screen.findByText("/go/platform-two");
  fireEvent.click(within(row("platform-two")).getByRole("button", { name: "Deactivate platform-two" }));
  await waitFor(() => expect(within(row("platform-two")).getByText("Inactive")).toBeTruthy(), LONG);
  expect((await request("/go/platform-two?p=learn")).headers.get("location")).toBe("/learn");
  fireEvent.click(within(row("platform-two")).getByRole("button", { name: "Activate platform-two" }));
  await waitFor(() => expect(within(row("platform-two")).getByText("Active")).toBeTruthy(), LONG);
  expect((await request("/go/platform-two")).headers.get("location")).toBe("https://example.org/platform-two");
});
