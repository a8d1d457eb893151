import { afterEach, expect, spyOn, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Secret, TOTP } from "otpauth";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage, messageAt } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { AccountTab } from "./admin-account.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

const codeAt = (secret: string, offset = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

test("enrolment: a QR code drawn on the page and the typed secret, a wrong first code refused at its field, then ten recovery codes shown once with copy and download", async () => {
  const { asAdmin, database } = await adminApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  renderAt("/admin/account", <AccountTab />);
  fireEvent.click(await screen.findByRole("button", { name: "Set Up Two-Factor Sign-In" }));

  const qr = await screen.findByRole("img", { name: "QR code to scan with your authenticator app" });
  expect(qr.tagName.toLowerCase()).toBe("svg");
  // Drawn here: no image is fetched from anywhere.
  expect(document.querySelector("img")).toBeNull();
  const shown = document.querySelector<HTMLElement>(".totp-secret")!;
  const secret = shown.dataset.secret!;
  expect(shown.textContent).toBe(secret.match(/.{1,4}/g)!.join(" "));
  const pending = database.sqlite.query("SELECT totp_pending_secret AS s FROM admin_users").get() as { s: string };
  expect(pending.s).toBe(secret);

  const field = screen.getByLabelText("Code from the app");
  expect([field.getAttribute("autocomplete"), field.getAttribute("inputmode")]).toEqual(["one-time-code", "numeric"]);
  fireEvent.change(field, { target: { value: "12345" } });
  fireEvent.click(screen.getByRole("button", { name: "Turn On" }));
  expect(fieldMessage("Code from the app")).toBe("Enter the 6-digit code your app shows.");
  const wrong = codeAt(secret) === "000000" ? "111111" : "000000";
  fireEvent.change(field, { target: { value: wrong } });
  fireEvent.click(screen.getByRole("button", { name: "Turn On" }));
  await messageAt("Code from the app", "That code is not right. Try again.");

  fireEvent.change(field, { target: { value: codeAt(secret, -1) } });
  fireEvent.click(screen.getByRole("button", { name: "Turn On" }));
  const list = await screen.findByRole("list", { name: "Recovery codes" });
  const codes = within(list)
    .getAllByRole("listitem")
    .map((item) => item.textContent!);
  expect(codes).toHaveLength(10);
  expect(screen.getByRole("note").textContent).toContain("Save these recovery codes somewhere safe");
  const download = screen.getByRole("button", { name: "Download" });
  expect(download.getAttribute("download")).toBe("cam-guide-recovery-codes.txt");
  expect(decodeURIComponent(download.getAttribute("href")!)).toContain(codes.join("\n"));
  const written: string[] = [];
  Object.defineProperty(navigator, "clipboard", {
    value: { writeText: async (text: string) => void written.push(text) },
    configurable: true,
  });
  fireEvent.click(screen.getByRole("button", { name: "Copy" }));
  await waitFor(() => expect(written[0]).toContain(codes[9]!));

  // Once put away, they are never shown again.
  fireEvent.click(screen.getByRole("button", { name: "I Have Saved Them" }));
  await screen.findByText(/10 of 10 recovery codes left/);
  expect(screen.queryByRole("list", { name: "Recovery codes" })).toBeNull();
  expect(document.body.textContent).not.toContain(codes[0]!);
});

test("with two-factor on: new recovery codes and turning it off ask for a current code; the password form asks for one too", async () => {
  const { asAdmin } = await adminApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  // Enrolled through the API, as the first test does through the page.
  const { secret } = (await (
    await asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} })
  ).json()) as { secret: string };
  const { recoveryCodes } = (await (
    await asAdmin("/api/admin/account/two-factor/confirm", { method: "POST", json: { code: codeAt(secret, -1) } })
  ).json()) as { recoveryCodes: string[] };
  renderAt("/admin/account", <AccountTab />);
  const label = "Current code (from the app, or a recovery code)";
  await screen.findByLabelText(label);
  expect(screen.getByLabelText("Code from your app (or a recovery code)")).toBeTruthy();

  fireEvent.click(screen.getByRole("button", { name: "New Recovery Codes" }));
  expect(fieldMessage(label)).toBe("Enter a current code from your app, or a recovery code.");
  fireEvent.change(screen.getByLabelText(label), { target: { value: recoveryCodes[0] } });
  fireEvent.click(screen.getByRole("button", { name: "New Recovery Codes" }));
  const list = await screen.findByRole("list", { name: "Recovery codes" });
  expect(
    within(list)
      .getAllByRole("listitem")
      .map((item) => item.textContent),
  ).not.toContain(recoveryCodes[1]);
  fireEvent.click(screen.getByRole("button", { name: "I Have Saved Them" }));
  expect(await screen.findByText(/10 of 10 recovery codes left/)).toBeTruthy();

  // The old codes stopped working: one of them cannot turn it off.
  const confirm = spyOn(window, "confirm").mockReturnValue(true);
  fireEvent.change(await screen.findByLabelText(label), { target: { value: recoveryCodes[1] } });
  fireEvent.click(screen.getByRole("button", { name: "Turn Off" }));
  await messageAt(label, "That code is not right. Try again.");
  fireEvent.change(screen.getByLabelText(label), { target: { value: codeAt(secret) } });
  fireEvent.click(screen.getByRole("button", { name: "Turn Off" }));
  await screen.findByRole("button", { name: "Set Up Two-Factor Sign-In" });
  expect(confirm).toHaveBeenCalled();
  confirm.mockRestore();
  // Off: the password form no longer asks for a code.
  expect(screen.queryByLabelText("Code from your app (or a recovery code)")).toBeNull();
});

test("with none of the recovery codes left, the section says so strongly", async () => {
  const { asAdmin, sqlite } = await adminApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  const { secret } = (await (
    await asAdmin("/api/admin/account/two-factor/start", { method: "POST", json: {} })
  ).json()) as { secret: string };
  await asAdmin("/api/admin/account/two-factor/confirm", { method: "POST", json: { code: codeAt(secret, -1) } });
  sqlite.query("UPDATE admin_recovery_codes SET used = 1, used_at = ?").run(Date.now());
  renderAt("/admin/account", <AccountTab />);
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toBe(
    "No recovery codes left. If you lose your phone, you cannot sign in until whoever runs the server turns two-factor sign-in off. Make new recovery codes now.",
  );
  expect(alert.querySelector("strong")?.textContent).toBe("No recovery codes left.");
  expect(screen.queryByText(/of 10 recovery codes left/)).toBeNull();
});

test("changing the password: the 12-character rule before sending, the current password checked by the server", async () => {
  const { asAdmin } = await adminApp();
  const sent: string[] = [];
  routeFetchTo((path, init) => {
    if (init?.method === "POST") sent.push(path);
    return asAdmin(path, init);
  });
  renderAt("/admin/account", <AccountTab />);
  const newLabel = "New password (12+ characters)";
  fireEvent.change(await screen.findByLabelText("Current password"), { target: { value: "not-the-password" } });
  fireEvent.change(screen.getByLabelText(newLabel), { target: { value: "short" } });
  fireEvent.click(screen.getByRole("button", { name: "Change Password" }));
  expect(fieldMessage(newLabel)).toBe("The new password needs at least 12 characters (at most 256).");
  expect(sent).toEqual([]);
  fireEvent.change(screen.getByLabelText(newLabel), { target: { value: "a-much-longer-password" } });
  fireEvent.click(screen.getByRole("button", { name: "Change Password" }));
  await messageAt("Current password", "That is not your current password.");
  expect(sent).toEqual(["/api/admin/account/password"]);
});
