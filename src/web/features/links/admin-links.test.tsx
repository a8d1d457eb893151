import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { adminApp, requestLine } from "#tests/support/admin.ts";
import { createLink } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi } from "#web/admin/admin-client.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { LinksTab, NewLinkEditor } from "./admin-links.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

// The real app answers each write and the list is fetched again: deadlines for a busy machine
// (the edit's three waits, 15 s each, get a test deadline above their sum).
const LONG = { timeout: 15_000 };

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

/** Resolves once `value()` is the new destination (polled every 20 ms, for at most 15 s). */
async function until(value: () => unknown) {
  const deadline = Date.now() + 15_000;
  while (JSON.stringify(value()) !== JSON.stringify({ destination: "https://new.example/join" })) {
    if (Date.now() > deadline) throw new Error("the link was not saved");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const row = (slug: string) => screen.getByText(`/go/${slug}`).closest("tr") as HTMLElement;

test("lists the links; a bad fallback is refused at its field before anything is sent", async () => {
  const { asAdmin, database } = await linksApp();
  const sent = routeFetchTo(asAdmin);
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
}, 60_000);

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

test("Find a link filters by slug, destination and notes as the admin types; the health filter narrows it", async () => {
  const t = await linksApp();
  await createLink(t.db, { slug: "never-checked", destination: "https://third.example/" });
  await createLink(t.db, {
    slug: "dead-one",
    destination: "https://dead.example/",
    healthClass: "broken",
    lastStatus: 404,
    lastCheckedAt: new Date(),
  });
  await createLink(t.db, {
    slug: "dead-off",
    destination: "https://off.example/",
    active: false,
    healthClass: "broken",
  });
  await t.database.sqlite.run(
    "UPDATE links SET health_class = 'healthy', last_checked_at = 1 WHERE slug LIKE 'platform-%'",
  );
  routeFetchTo((path, init) => t.asAdmin(path, init));
  renderAt("/admin/links", <LinksTab />);
  await screen.findByText("/go/platform-one");
  const count = () => screen.getByText(/ of 5 links$/).textContent;
  const slugs = () => [...document.querySelectorAll("tbody code")].map((code) => code.textContent);
  expect(count()).toBe("5 of 5 links");

  const find = screen.getByRole("searchbox", { name: "Find a link" });
  fireEvent.change(find, { target: { value: "PLATFORM 1" } }); // notes, any case
  expect(slugs()).toEqual(["/go/platform-one"]);
  fireEvent.change(find, { target: { value: "example.org" } }); // destination
  expect(slugs()).toEqual(["/go/platform-two"]);
  expect(count()).toBe("1 of 5 links");
  fireEvent.change(find, { target: { value: "nothing-like-this" } });
  expect(screen.getByText("No link matches.")).toBeTruthy();
  fireEvent.change(find, { target: { value: "" } });

  const health = screen.getByRole("combobox", { name: "Health" });
  fireEvent.change(health, { target: { value: "attention" } }); // active and broken only
  expect(slugs()).toEqual(["/go/dead-one"]);
  fireEvent.change(health, { target: { value: "unchecked" } });
  expect(slugs()).toEqual(["/go/never-checked"]);
  // A broken link's off button says it turns the link off.
  fireEvent.change(health, { target: { value: "all" } });
  expect(
    within(row("dead-one")).getByRole("button", { name: "Turn off: send clicks back to the page dead-one" }),
  ).toBeTruthy();
});

test("New link: the slug has the focus, the failed-checks number is sent, a taken slug shows at its field", async () => {
  const t = await linksApp();
  routeFetchTo((path, init) => t.asAdmin(path, init));
  let done = 0;
  renderAt("/admin/links/new", <NewLinkEditor onDone={() => done++} />);
  const slug = screen.getByLabelText("Slug");
  expect(document.activeElement).toBe(slug);
  expect(document.getElementById(slug.getAttribute("aria-describedby")!)?.textContent).toContain(
    "The short name in the address /go/<slug>",
  );
  fireEvent.change(slug, { target: { value: "platform-one" } });
  fireEvent.change(screen.getByLabelText("Destination"), { target: { value: "https://new.example/" } });
  fireEvent.change(screen.getByLabelText(/^Use the fallback after this many failed checks/), {
    target: { value: "3" },
  });
  fireEvent.click(screen.getByRole("button", { name: "Create Link" }));
  await waitFor(() => expect(fieldMessage("Slug")).toContain("exists"), LONG);
  const toasts = useToastStore.getState().toasts;
  expect(toasts.map((toast) => toast.description)).toEqual(["Check the highlighted field."]);

  fireEvent.change(slug, { target: { value: "brand-new" } });
  fireEvent.click(screen.getByRole("button", { name: "Create Link" }));
  await waitFor(() => expect(done).toBe(1), LONG);
  expect(t.database.sqlite.query("SELECT auto_fallback_after AS n FROM links WHERE slug = 'brand-new'").get()).toEqual({
    n: 3,
  });
});

test("New link: a destination on this computer or a private network is refused at its field, saying why", async () => {
  const { asAdmin, database } = await linksApp();
  const sent = routeFetchTo(asAdmin);
  renderAt("/admin/links/new", <NewLinkEditor onDone={() => {}} />);
  fireEvent.change(screen.getByLabelText("Slug"), { target: { value: "inside" } });
  fireEvent.change(screen.getByLabelText("Destination"), { target: { value: "http://2130706433:8080/admin" } });
  fireEvent.click(screen.getByRole("button", { name: "Create Link" }));
  await waitFor(
    () =>
      expect(fieldMessage("Destination")).toBe(
        "The destination's host 127.0.0.1 is a loopback address (this computer itself), not a public internet address: visitors cannot reach it",
      ),
    LONG,
  );
  // The refusal is the answer: said as soon as it arrives, never after sending the same link again.
  expect(sent.filter((line) => line === requestLine("POST", adminApi.link))).toHaveLength(1);
  expect(useToastStore.getState().toasts.map((toast) => toast.description)).toEqual(["Check the highlighted field."]);
  expect(database.sqlite.query("SELECT count(*) AS n FROM links WHERE slug = 'inside'").get()).toEqual({ n: 0 });
});
