import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { ADMIN, adminApp, enrolTwoFactor } from "#tests/support/admin.ts";
import { testApp } from "#tests/support/app.ts";
import { cookieJar } from "#tests/support/cookie-jar.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { authApi } from "#web/admin/admin-client.ts";
import { useToastStore } from "#web/stores/toast.ts";
import AdminLoginPage from "./admin-login-page.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
  localStorage.clear();
});

const messageOf = (label: string) =>
  document.getElementById(screen.getByLabelText(new RegExp(`^${label}`)).getAttribute("aria-describedby") ?? "")
    ?.textContent ?? null;

test("both fields are required before anything is sent; the server's field details show at the field", async () => {
  const { request } = testApp();
  const sent: string[] = [];
  routeFetchTo((path, init) => {
    sent.push(path);
    return request(path, { ...init, headers: { ...(init?.headers as object), origin: "http://localhost" } });
  });
  renderAt("/admin-login", <AdminLoginPage />);
  fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
  expect([messageOf("Username"), messageOf("Password")]).toEqual(["Username is required", "Password is required"]);
  expect(sent).toEqual([]);

  // Longer than the schema allows: only the server says so, at the field.
  fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: "x".repeat(65) } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: "some password" } });
  fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
  await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Invalid username or password"));
  expect([messageOf("Username"), messageOf("Password")]).toEqual(["Username is required", null]);
  expect(sent).toEqual([authApi.login["~path"]]);
  expect(useToastStore.getState().toasts[0]).toMatchObject({
    title: "Login failed",
    description: "Invalid username or password",
  });
});

test("with two-factor on, the password leads to the code step; a wrong code is refused, the switch asks for a recovery code, which signs in", async () => {
  const { asAdmin, request } = await adminApp();
  const { recoveryCodes } = await enrolTwoFactor(asAdmin);
  // The browser's cookie jar, as far as this page needs one.
  const jar = new Map<string, string>();
  routeFetchTo(async (path, init) => {
    const headers = new Headers(init?.headers);
    headers.set("origin", "http://localhost");
    headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const res = await request(path, { ...init, headers });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, value] = pair!.split("=") as [string, string];
      if (value) jar.set(name, value);
      else jar.delete(name);
    }
    return res;
  });
  const { location } = renderAt("/admin-login", <AdminLoginPage />);
  fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: ADMIN.username } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: ADMIN.password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign In" }));

  const code = await screen.findByLabelText("Code from your authenticator app");
  expect(location.history.at(-1)).toBe("/admin-login?step=code");
  expect(jar.has("cg_session")).toBe(false);
  expect(jar.has("cg_2fa")).toBe(true);
  expect([code.getAttribute("autocomplete"), code.getAttribute("inputmode"), code.getAttribute("name")]).toEqual([
    "one-time-code",
    "numeric",
    "code",
  ]);
  expect(document.activeElement).toBe(code);
  // Without its script the form posts to the code step.
  expect(code.closest("form")!.getAttribute("action")).toBe(authApi.login.code["~path"]);
  // It takes a recovery code too: nothing cuts a pasted one short or refuses its letters.
  expect([code.getAttribute("maxlength"), code.getAttribute("pattern")]).toEqual(["64", null]);

  fireEvent.change(code, { target: { value: "000000" } });
  fireEvent.click(screen.getByRole("button", { name: "Verify" }));
  await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("That code is not right. Try again."));
  expect(jar.has("cg_session")).toBe(false);

  fireEvent.click(screen.getByRole("link", { name: "Use a recovery code" }));
  const recovery = await screen.findByLabelText("Recovery code");
  expect(location.history.at(-1)).toBe("/admin-login?step=code&use=recovery");
  expect(recovery.getAttribute("autocomplete")).toBe("off");
  fireEvent.change(recovery, { target: { value: recoveryCodes[0] } });
  fireEvent.click(screen.getByRole("button", { name: "Verify" }));
  await waitFor(() => expect(location.history.at(-1)).toBe("/admin"));
  expect(jar.has("cg_session")).toBe(true);
  expect(jar.has("cg_2fa")).toBe(false);
  // Straight away: how many recovery codes are left (the admin home says it too).
  expect(useToastStore.getState().toasts.at(-1)).toMatchObject({
    title: "Success",
    description: "Logged in with a recovery code: 9 of 10 left.",
  });
});

test("a code step whose sign-in ended goes back to the password with a message", async () => {
  const { request } = testApp();
  routeFetchTo((path, init) =>
    request(path, { ...init, headers: { ...(init?.headers as object), origin: "http://localhost" } }),
  );
  const { location } = renderAt("/admin-login?step=code", <AdminLoginPage />);
  fireEvent.change(screen.getByLabelText("Code from your authenticator app"), { target: { value: "123456" } });
  fireEvent.click(screen.getByRole("button", { name: "Verify" }));
  await waitFor(() => expect(location.history.at(-1)).toBe("/admin-login?error=expired"));
  expect((await screen.findByRole("alert")).textContent).toBe(
    "Your sign-in took too long or was started again. Enter your username and password again.",
  );
  expect(screen.getByLabelText(/^Password/)).toBeTruthy();
});

test("a recovery code pasted where the app's code goes is taken whole and signs in", async () => {
  const { asAdmin, request } = await adminApp();
  const { recoveryCodes } = await enrolTwoFactor(asAdmin);
  const browser = cookieJar(request);
  routeFetchTo(browser.send);
  const { location } = renderAt("/admin-login", <AdminLoginPage />);
  fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: ADMIN.username } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: ADMIN.password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign In" }));
  const code = (await screen.findByLabelText(
    "Code from your authenticator app",
    {},
    { timeout: 5000 },
  )) as HTMLInputElement;
  // As a paste puts it in the field: "abcd-efgh-jkmn", fourteen characters with its dashes.
  fireEvent.change(code, { target: { value: ` ${recoveryCodes[0]} ` } });
  expect(code.value).toBe(` ${recoveryCodes[0]} `);
  fireEvent.click(screen.getByRole("button", { name: "Verify" }));
  await waitFor(() => expect(location.history.at(-1)).toBe("/admin"), { timeout: 5000 });
  expect(browser.jar.has("cg_session")).toBe(true);
  expect(useToastStore.getState().toasts.at(-1)?.description).toBe("Logged in with a recovery code: 9 of 10 left.");
});
