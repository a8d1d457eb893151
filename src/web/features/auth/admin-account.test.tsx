import { afterEach, expect, spyOn, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { ADMIN, adminApp, codeAt, enrolTwoFactor } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage, messageAt } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi } from "#web/admin/admin-client.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { AccountTab } from "./admin-account.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

/** The enrolment form: the Password section below has a "Current password" of its own. */
const enrolForm = () => within(screen.getByRole("region", { name: "Two-factor sign-in" }));

/** The message announced for a control of the enrolment form. */
function enrolMessage(label: string): string | null {
  const input = enrolForm().getByLabelText(label);
  const id = input.getAttribute("aria-describedby");
  return input.getAttribute("aria-invalid") === "true" && id
    ? (document.getElementById(id)?.textContent ?? null)
    : null;
}
const enrolMessageIs = (label: string, message: string) =>
  waitFor(() => expect(enrolMessage(label)).toBe(message), { timeout: 5000 });

const twoFactorRow = (sqlite: { query: (sql: string) => { get: () => unknown } }) =>
  sqlite.query("SELECT totp_secret AS on_, totp_pending_secret AS pending FROM admin_users").get() as {
    on_: string | null;
    pending: string | null;
  };

test("enrolment: a QR code drawn on the page and the typed secret, the code and the current password checked at their fields, then ten recovery codes shown once with copy and download", async () => {
  const { asAdmin, sqlite } = await adminApp();
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
  expect(twoFactorRow(sqlite)).toEqual({ on_: null, pending: secret });

  const field = enrolForm().getByLabelText("Code from the app");
  expect([field.getAttribute("autocomplete"), field.getAttribute("inputmode")]).toEqual(["one-time-code", "numeric"]);
  const password = enrolForm().getByLabelText("Current password");
  expect([password.getAttribute("type"), password.getAttribute("autocomplete")]).toEqual([
    "password",
    "current-password",
  ]);
  const turnOn = () => fireEvent.click(screen.getByRole("button", { name: "Turn On" }));

  // Both missing: each said at its field, the focus on the first.
  fireEvent.change(field, { target: { value: "12345" } });
  turnOn();
  expect(enrolMessage("Code from the app")).toBe("Enter the 6-digit code your app shows.");
  expect(enrolMessage("Current password")).toBe("Enter your current password.");
  expect(document.activeElement).toBe(field);
  // The code fixed, the password still missing: the focus goes to it, nothing is sent.
  fireEvent.change(field, { target: { value: codeAt(secret, -1) } });
  expect(enrolMessage("Code from the app")).toBeNull();
  turnOn();
  expect(enrolMessage("Current password")).toBe("Enter your current password.");
  expect(document.activeElement).toBe(password);

  // A wrong password with the right code: refused at the password, nothing changed.
  fireEvent.change(password, { target: { value: "not-the-password" } });
  expect(enrolMessage("Current password")).toBeNull();
  turnOn();
  await enrolMessageIs("Current password", "That is not your current password.");
  expect(document.activeElement).toBe(password);
  expect(enrolMessage("Code from the app")).toBeNull();
  expect(twoFactorRow(sqlite)).toEqual({ on_: null, pending: secret });

  // The right password with a wrong code: refused at the code.
  fireEvent.change(password, { target: { value: ADMIN.password } });
  const wrong = [codeAt(secret, -1), codeAt(secret), codeAt(secret, 1)].includes("000000") ? "111111" : "000000";
  fireEvent.change(field, { target: { value: wrong } });
  turnOn();
  await enrolMessageIs("Code from the app", "That code is not right. Try again.");
  expect(enrolMessage("Current password")).toBeNull();
  expect(twoFactorRow(sqlite)).toEqual({ on_: null, pending: secret });

  // A recovery code (kept from an earlier set-up) where the app's code goes: said what it is and what goes here.
  fireEvent.change(field, { target: { value: "abcd-efgh-jkmn" } });
  turnOn();
  await enrolMessageIs(
    "Code from the app",
    "That is a recovery code. Setting up needs the 6-digit code your authenticator app shows now for cam-guide: recovery codes only stand in for the app once two-factor sign-in is on.",
  );
  expect(twoFactorRow(sqlite)).toEqual({ on_: null, pending: secret });

  fireEvent.change(field, { target: { value: codeAt(secret, -1) } });
  turnOn();
  const list = await screen.findByRole("list", { name: "Recovery codes" });
  const codes = within(list)
    .getAllByRole("listitem")
    .map((item) => item.textContent!);
  expect(codes).toHaveLength(10);
  expect(twoFactorRow(sqlite)).toEqual({ on_: secret, pending: null });
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

test("enrolment: too many wrong passwords are said above the buttons; Cancel forgets what was typed", async () => {
  const { asAdmin, sqlite } = await adminApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  renderAt("/admin/account", <AccountTab />);
  fireEvent.click(await screen.findByRole("button", { name: "Set Up Two-Factor Sign-In" }));
  await screen.findByRole("img", { name: "QR code to scan with your authenticator app" });
  const secret = document.querySelector<HTMLElement>(".totp-secret")!.dataset.secret!;
  fireEvent.change(enrolForm().getByLabelText("Code from the app"), { target: { value: codeAt(secret) } });
  for (let i = 0; i < 5; i++) {
    fireEvent.change(enrolForm().getByLabelText("Current password"), { target: { value: `guess-${i}` } });
    fireEvent.click(screen.getByRole("button", { name: "Turn On" }));
    await enrolMessageIs("Current password", "That is not your current password.");
  }
  fireEvent.change(enrolForm().getByLabelText("Current password"), { target: { value: ADMIN.password } });
  fireEvent.click(screen.getByRole("button", { name: "Turn On" }));
  const alert = await enrolForm().findByRole("alert", {}, { timeout: 5000 });
  expect(alert.textContent).toStartWith("Too many wrong codes or passwords. Try again in");
  expect(twoFactorRow(sqlite)).toEqual({ on_: null, pending: secret });

  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  fireEvent.click(await screen.findByRole("button", { name: "Set Up Two-Factor Sign-In" }));
  await screen.findByRole("img", { name: "QR code to scan with your authenticator app" });
  expect((enrolForm().getByLabelText("Current password") as HTMLInputElement).value).toBe("");
  expect((enrolForm().getByLabelText("Code from the app") as HTMLInputElement).value).toBe("");
  expect(enrolForm().queryByRole("alert")).toBeNull();
});

test("with two-factor on: new recovery codes and turning it off ask for a current code; the password form asks for one too", async () => {
  const { asAdmin } = await adminApp();
  routeFetchTo((path, init) => asAdmin(path, init));
  // Enrolled through the API, as the first test does through the page.
  const { secret, recoveryCodes } = await enrolTwoFactor(asAdmin);
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
  await messageAt(
    label,
    "That recovery code is not right, or it was used already (each one works once). Try another of your saved recovery codes, or the 6-digit code from your app.",
  );
  // The field takes either kind: a phone shows the keyboard with letters.
  expect(screen.getByLabelText(label).getAttribute("inputmode")).toBe("text");
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
  await enrolTwoFactor(asAdmin);
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
  expect(sent).toEqual([adminApi.account.password["~path"]]);
});
