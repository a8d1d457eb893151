import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { adminApp, requestLine } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage, messageAt } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi } from "#web/admin/admin-client.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { SettingsTab } from "./admin-settings.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

test("each platform's problems show at its own name and URL fields, before anything is sent", async () => {
  const { asAdmin, database } = await adminApp();
  const sent = routeFetchTo(asAdmin);
  const before = database.sqlite.query("SELECT * FROM site_settings").get();
  renderAt("/admin", <SettingsTab />);
  fireEvent.change(await screen.findByLabelText("Platform 1 link"), { target: { value: "+new" } });
  fireEvent.change(screen.getByLabelText("Platform 1 new link's slug"), { target: { value: "platform-new" } });
  fireEvent.change(screen.getByLabelText("Platform 1 new link's destination"), { target: { value: "nope" } });
  fireEvent.change(screen.getByLabelText("Platform 2 name"), { target: { value: "" } });
  fireEvent.click(screen.getByRole("button", { name: "Save Settings" }));
  await messageAt("Platform 1 new link's destination", "Must be a valid URL");
  expect(fieldMessage("Platform 2 name")).toBe("Platform name is required, at most 60 characters");
  expect([fieldMessage("Platform 1 name"), fieldMessage("Platform 2 link"), fieldMessage("Brand name")]).toEqual([
    null,
    null,
    null,
  ]);
  expect(sent.filter((call) => !call.startsWith("GET "))).toEqual([]);
  expect(database.sqlite.query("SELECT * FROM site_settings").get()).toEqual(before);
});

/** A save's round trip to the in-process app, on a busy machine (Testing Library's default is one second). */
const SAVED = { timeout: 10_000 };
// A test of several saves gets a deadline above the sum of its waits (a busy machine).

test("the public address: shown with where it came from, a local one warned about, a bad one refused at its field", async () => {
  const { asAdmin, database } = await adminApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  renderAt("/admin", <SettingsTab />);
  const form = await screen.findByRole("form", { name: "Public address" });
  // The test signed in at http://localhost, which visitors cannot reach: nothing was recorded.
  expect(form.textContent).toContain("Links in feeds and search engines use: no address yet");
  expect(form.textContent).toContain("Sign in once at the address visitors use, or enter it here.");
  const stored = () => database.sqlite.query("SELECT public_origin, public_origin_confirmed FROM site_settings").get();
  const save = (value: string) => {
    fireEvent.change(screen.getByLabelText("Address visitors use"), { target: { value } });
    fireEvent.click(screen.getByRole("button", { name: "Save Address" }));
  };

  save("http://localhost:3000");
  await waitFor(() => expect(form.textContent).toContain("use: http://localhost:3000"), SAVED);
  expect(form.textContent).toContain("Only this computer or your local network can reach this address.");

  save("https://example.com/blog");
  await messageAt(
    "Address visitors use",
    "Enter the address visitors use, such as https://example.com (http or https, no path)",
  );
  expect(stored()).toEqual({ public_origin: "http://localhost:3000", public_origin_confirmed: 1 });

  save("https://guide.example.com");
  await waitFor(() => expect(form.textContent).toContain("use: https://guide.example.com"), SAVED);
  expect(form.textContent).toContain("Confirmed by you.");
  expect(form.textContent).not.toContain("local network");
  expect(stored()).toEqual({ public_origin: "https://guide.example.com", public_origin_confirmed: 1 });

  // A domain typed as one says it: https is assumed.
  save("  cam-guide.example.org ");
  await waitFor(() => expect(form.textContent).toContain("use: https://cam-guide.example.org"), SAVED);
  expect(stored()).toEqual({ public_origin: "https://cam-guide.example.org", public_origin_confirmed: 1 });
  save("cam-guide.example.org/blog");
  await messageAt(
    "Address visitors use",
    "Enter the address visitors use, such as https://example.com (http or https, no path)",
  );
  expect(stored()).toEqual({ public_origin: "https://cam-guide.example.org", public_origin_confirmed: 1 });
}, 60_000);

test("the site's claims: each explained in plain words, a long one refused at its field, an empty one saved", async () => {
  const { asAdmin, database } = await adminApp();
  const sent = routeFetchTo(asAdmin);
  renderAt("/admin", <SettingsTab />);
  const income = await screen.findByLabelText("Income figure");
  expect((income as HTMLInputElement).value).toBe("$10k+");
  const hint = (label: string) =>
    document.getElementById(screen.getByLabelText(label).getAttribute("aria-describedby") ?? "")?.textContent;
  expect(hint("Income figure")).toContain("Leave empty to hide it.");
  expect(hint("Testimonial")).toContain("Leave empty to hide the whole testimonial.");
  expect(hint("Banner claim")).toContain("Write {platform} where the platform’s name goes.");
  expect(screen.getByText(/Only state what you can back up\./)).toBeTruthy();

  fireEvent.change(income, { target: { value: "x".repeat(21) } });
  fireEvent.click(screen.getByRole("button", { name: "Save Settings" }));
  await messageAt(
    "Income figure",
    "The income figure must be plain text of at most 20 characters, with no control or invisible characters (leave it empty to hide it)",
  );
  expect(sent.filter((call) => !call.startsWith("GET "))).toEqual([]);

  fireEvent.change(income, { target: { value: "" } });
  fireEvent.change(screen.getByLabelText("Testimonial"), { target: { value: "" } });
  fireEvent.click(screen.getByRole("button", { name: "Save Settings" }));
  await waitFor(() => expect(sent).toContain(requestLine("PUT", adminApi.settings)));
  await waitFor(() =>
    expect(
      database.sqlite.query("SELECT income_figure, testimonial_quote, banner_claim FROM site_settings").get(),
    ).toEqual({
      income_figure: "",
      testimonial_quote: "",
      banner_claim: "Over 100,000 webcam models trust {platform} for steady income.",
    }),
  );
});

test("automatic link checks: a schedule chosen here is saved and runs at once", async () => {
  const { asAdmin } = await adminApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  renderAt("/admin/settings", <SettingsTab />);
  const form = await screen.findByRole("form", { name: "Automatic link checks" });
  // The test server has no default schedule.
  expect(form.textContent).toContain("Now: off.");
  const select = screen.getByLabelText("Check links") as HTMLSelectElement;
  expect(select.value).toBe("default");
  expect([...select.options].map((o) => o.textContent)).toEqual([
    "The default (off)",
    "Off: only when I press “Check all links now”",
    "Every 6 hours",
    "Every 12 hours",
    "Daily",
    "Every 3 days",
    "Weekly",
    "Every two weeks",
    "Every 30 days",
  ]);
  fireEvent.change(select, { target: { value: "24" } });
  fireEvent.click(screen.getByRole("button", { name: "Save Schedule" }));
  await waitFor(() =>
    expect(screen.getByRole("form", { name: "Automatic link checks" }).textContent).toContain("Now: daily."),
  );
  // What the server's timer runs now.
  expect(await (await asAdmin(adminApi.settings["link-checks"])).json()).toMatchObject({
    hours: 24,
    source: "settings",
  });
  await asAdmin(adminApi.settings["link-checks"], { method: "PUT", json: { hours: null } });
});

test("automatic link checks set by LINK_CHECK_INTERVAL: shown, not editable here", async () => {
  const { asAdmin } = await adminApp({ linkCheckInterval: 12 });
  routeFetchTo((path, init) => asAdmin(path, init));
  renderAt("/admin/settings", <SettingsTab />);
  const form = await screen.findByRole("form", { name: "Automatic link checks" });
  expect(form.textContent).toContain("Now: every 12 hours.");
  expect(form.textContent).toContain("Set by LINK_CHECK_INTERVAL on the server: change it there.");
  expect(screen.queryByLabelText("Check links")).toBeNull();
  expect(screen.queryByRole("button", { name: "Save Schedule" })).toBeNull();
});
