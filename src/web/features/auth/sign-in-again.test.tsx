import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Secret, TOTP } from "otpauth";
import { ADMIN, requestLine, SAME_ORIGIN } from "#tests/support/admin.ts";
import { testApp } from "#tests/support/app.ts";
import { cookieJar } from "#tests/support/cookie-jar.ts";
import { createAdmin } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi, adminKey, at, authApi } from "#web/admin/admin-client.ts";
import AdminPage from "#web/admin/admin-page.tsx";
import { sessionResumed } from "#web/stores/session.ts";
import { useToastStore } from "#web/stores/toast.ts";
import AdminLoginPage from "./admin-login-page.tsx";
import { setAdminFlag } from "./admin-session.ts";
import { SIGNED_OUT_TEXT, SIGNED_OUT_TITLE } from "./sign-in-again.tsx";

afterEach(() => {
  act(() => {
    useToastStore.getState().remove();
    sessionResumed();
  });
  cleanup();
  localStorage.clear();
});

// The dashboard with an editor is a large page: a failed query says what it missed, without
// printing the whole page.
configure({ getElementError: (message) => new Error(message ?? "") });

const NEW_PASSWORD = "a-new-password-from-the-phone";
/** A password is checked by a deliberately slow hash: signing in takes a moment on a busy machine. */
const SIGNING_IN = { timeout: 15_000 };

/**
 * The real app, a browser signed in on it (its cookie jar), and every request the browser
 * sends, by method and path.
 */
async function signedInBrowser() {
  const t = testApp();
  await createAdmin(t.db);
  const browser = cookieJar(t.request);
  const sent = routeFetchTo((path, init) => browser.send(path, init));
  const signIn = await browser.send(authApi.login["~path"], {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  expect(signIn.status).toBe(200);
  setAdminFlag({ id: 1, username: ADMIN.username });
  sent.length = 0;
  /** Another device signs in and changes the password: every other session ends. */
  async function passwordChangedElsewhere() {
    const other = cookieJar(t.request);
    await other.send(authApi.login["~path"], {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const changed = await other.send(adminApi.account.password["~path"], {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ currentPassword: ADMIN.password, newPassword: NEW_PASSWORD }),
    });
    expect(changed.status).toBe(200);
  }
  return { ...t, browser, sent, passwordChangedElsewhere };
}

async function typeNewPost() {
  const view = renderAt("/admin/posts/new", <AdminPage />);
  await screen.findByRole("heading", { name: "New Post" });
  fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Typed on the desktop" } });
  fireEvent.change(screen.getByLabelText("Content", { exact: true }), {
    target: { value: "Every word typed before the phone changed the password." },
  });
  return view;
}

// Waiting is done on cheap checks: role queries over a page this large, repeated on every
// change of the page, would keep the app's own requests waiting.
const dialogOpen = () => document.querySelector<HTMLDialogElement>("dialog.sign-in-again")?.open === true;

/** The sign-in dialog, once open: found by its role and its name. */
async function signInDialog() {
  await waitFor(() => expect(dialogOpen()).toBe(true));
  return screen.getByRole("dialog", { name: SIGNED_OUT_TITLE });
}
const postSaves = (sent: string[]) => sent.filter((line) => line === requestLine("POST", adminApi.blog.post));

describe("a session that ends while a form is open", () => {
  test("the save says so at once (sent once), the sign-in happens in place with the form kept, and the save then works", async () => {
    const { sent, browser, passwordChangedElsewhere } = await signedInBrowser();
    await typeNewPost();
    await passwordChangedElsewhere();

    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    const asked = await signInDialog();
    expect(asked.getAttribute("aria-describedby")).toBe("sign-in-again-text");
    expect(within(asked).getByText(SIGNED_OUT_TEXT)).toBeTruthy();
    // Refused once is final: the same save is not sent again.
    expect(postSaves(sent)).toHaveLength(1);
    // The username this browser signed in with is filled in; the password is what to type.
    const username = within(asked).getByLabelText(/^Username/) as HTMLInputElement;
    const password = within(asked).getByLabelText(/^Password/) as HTMLInputElement;
    expect(username.value).toBe(ADMIN.username);
    expect(document.activeElement).toBe(password);
    // Under the dialog the form holds everything typed.
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Typed on the desktop");

    // The old password is refused in place; the new one signs in.
    fireEvent.change(password, { target: { value: ADMIN.password } });
    fireEvent.click(within(asked).getByRole("button", { name: "Sign In" }));
    expect((await within(asked).findByRole("alert", {}, SIGNING_IN)).textContent).toBe("Invalid username or password");
    fireEvent.change(password, { target: { value: NEW_PASSWORD } });
    fireEvent.click(within(asked).getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(dialogOpen()).toBe(false), SIGNING_IN);
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      title: "Signed in again",
      description: "What you typed is still here: save it now.",
    });
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Typed on the desktop");

    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    await waitFor(() => expect(useToastStore.getState().toasts[0]?.description).toBe("Post created successfully"));
    const { posts } = (await (await browser.send(`${adminApi.blog.posts["~path"]}?q=typed-on-the-desktop`)).json()) as {
      posts: { id: number }[];
    };
    const saved = await (await browser.send(at(adminApi.blog.post, { id: posts[0]!.id })["~path"])).json();
    expect(saved.contentMarkdown).toBe("Every word typed before the phone changed the password.");
    expect(postSaves(sent)).toHaveLength(2);
  }, 30_000);

  test("a draft copy refused while signed out opens no dialog, and is sent again once signed in", async () => {
    const { sent, passwordChangedElsewhere } = await signedInBrowser();
    await typeNewPost();
    const title = screen.getByLabelText("Title") as HTMLInputElement;
    title.focus();
    await passwordChangedElsewhere();
    const text = () => document.body.textContent ?? "";
    // The background copy is refused: the editor's line and the signed-out line say so, and
    // the focus stays where the admin types.
    await waitFor(() => expect(text()).toContain("(you are signed out: sign in again to save)"), { timeout: 10_000 });
    expect(dialogOpen()).toBe(false);
    expect(document.activeElement === title).toBe(true);

    fireEvent.click(screen.getByRole("button", { name: "Sign In Again" }));
    const asked = await signInDialog();
    fireEvent.change(within(asked).getByLabelText(/^Password/), { target: { value: NEW_PASSWORD } });
    fireEvent.click(within(asked).getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(dialogOpen()).toBe(false), SIGNING_IN);
    // The same text is sent again, without another keystroke, and the line stops saying signed out.
    await waitFor(() => expect(text()).toMatch(/Saved as a draft copy at /), { timeout: 10_000 });
    expect(text()).not.toContain("you are signed out");
    expect(sent.filter((line) => line.startsWith(requestLine("PUT", adminApi.autosave))).length).toBeGreaterThanOrEqual(
      2,
    );
  }, 30_000);

  test("closed without signing in, a line keeps saying so; lists refreshing ask nothing, a save asks again", async () => {
    const { sent, passwordChangedElsewhere } = await signedInBrowser();
    const { queryClient } = await typeNewPost();
    await passwordChangedElsewhere();
    const save = screen.getByRole("button", { name: "Create Post" });
    save.focus();
    fireEvent.click(save);
    const asked = await signInDialog();
    fireEvent.click(within(asked).getByRole("button", { name: "Not Now" }));
    await waitFor(() => expect(dialogOpen()).toBe(false));
    // Put off by its button as by Escape, the focus goes back to the save that asked.
    await waitFor(() => expect(document.activeElement === save).toBe(true));
    const line = () => screen.getAllByRole("alert").find((alert) => alert.classList.contains("signed-out-bar"));
    expect(line()?.textContent).toContain("You are signed out: nothing can be saved until you sign in again.");

    // Every read refreshed in the background is refused too: the line says so, nothing pops up,
    // and what the page shows stays (the form included).
    const before = sent.length;
    await act(() => queryClient.invalidateQueries());
    expect(sent.length).toBeGreaterThan(before);
    expect(dialogOpen()).toBe(false);
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Typed on the desktop");
    // Typing on: the live preview the page asks for by itself is refused, and asks nothing either.
    const previews = () => sent.filter((line) => line === requestLine("POST", adminApi.editor.preview)).length;
    const previewed = previews();
    fireEvent.change(screen.getByLabelText("Content", { exact: true }), { target: { value: "One more line." } });
    await waitFor(() => expect(previews()).toBeGreaterThan(previewed));
    expect(dialogOpen()).toBe(false);
    expect(line()?.textContent).toContain("You are signed out");

    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    await signInDialog();
    fireEvent.click(screen.getByRole("button", { name: "Not Now" }));
    await waitFor(() => expect(dialogOpen()).toBe(false));
    fireEvent.click(within(line()!).getByRole("button", { name: "Sign In Again" }));
    expect(await signInDialog()).toBeTruthy();
  }, 30_000);

  test("the session check saying no while the dashboard is open says so in a line, keeping the page and the focus; the line opens the sign-in", async () => {
    const { passwordChangedElsewhere } = await signedInBrowser();
    const { queryClient } = await typeNewPost();
    const title = screen.getByLabelText("Title") as HTMLInputElement;
    title.focus();
    await passwordChangedElsewhere();
    await act(() => queryClient.invalidateQueries({ queryKey: adminKey(authApi.me) }));
    // No dialog takes the focus from someone typing: the line says it, and asks on demand.
    const again = await screen.findByRole("button", { name: "Sign In Again" });
    const line = screen.getAllByRole("alert").find((alert) => alert.classList.contains("signed-out-bar"));
    expect(line?.textContent).toContain("You are signed out");
    expect(dialogOpen()).toBe(false);
    expect(document.activeElement === title).toBe(true);
    fireEvent.click(again);
    expect(await signInDialog()).toBeTruthy();
    expect(title.value).toBe("Typed on the desktop");
  }, 30_000);

  test("with two-factor on, the code step is in the dialog too; a recovery code pasted where the app's code goes signs in", async () => {
    const t = await signedInBrowser();
    const enrol = cookieJar(t.request);
    await enrol.send(authApi.login["~path"], {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { secret } = (await (
      await enrol.send(adminApi.account["two-factor"].start["~path"], { method: "POST", ...json({}) })
    ).json()) as { secret: string };
    await typeNewPost();
    // Turning two-factor on elsewhere ends this browser's session.
    const { recoveryCodes } = (await (
      await enrol.send(adminApi.account["two-factor"].confirm["~path"], {
        method: "POST",
        ...json({ currentPassword: ADMIN.password, code: codeOf(secret) }),
      })
    ).json()) as { recoveryCodes: string[] };

    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    const asked = await signInDialog();
    fireEvent.change(within(asked).getByLabelText(/^Password/), { target: { value: ADMIN.password } });
    fireEvent.click(within(asked).getByRole("button", { name: "Sign In" }));
    const code = (await within(asked).findByLabelText(
      "Code from your authenticator app",
      {},
      SIGNING_IN,
    )) as HTMLInputElement;
    expect(document.activeElement).toBe(code);
    expect(code.maxLength).toBe(64);
    fireEvent.change(code, { target: { value: recoveryCodes[0] } });
    fireEvent.click(within(asked).getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(dialogOpen()).toBe(false), SIGNING_IN);
    expect(useToastStore.getState().toasts[0]?.description).toBe(
      "Logged in with a recovery code: 9 of 10 left. What you typed is still here: save it now.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    await waitFor(() => expect(useToastStore.getState().toasts[0]?.description).toBe("Post created successfully"));
  });
});

describe("the sign-in page after a session ended", () => {
  test("a dashboard opened by a browser whose session ended leads to the sign-in page, which says why", async () => {
    const t = testApp();
    await createAdmin(t.db);
    routeFetchTo(cookieJar(t.request).send);
    setAdminFlag({ id: 1, username: ADMIN.username });
    const { location } = renderAt("/admin/posts", <AdminPage />);
    await waitFor(() => expect(location.history.at(-1)).toBe("/admin-login?session=ended"));
    cleanup();
    renderAt("/admin-login?session=ended", <AdminLoginPage />);
    expect(screen.getByRole("status").textContent).toBe("Your session ended. Sign in again.");
    expect(screen.queryByRole("alert")).toBeNull();
  }, 30_000);

  test("never signed in on this browser: the sign-in page, saying nothing", async () => {
    const t = testApp();
    routeFetchTo(cookieJar(t.request).send);
    const { location } = renderAt("/admin", <AdminPage />);
    await waitFor(() => expect(location.history.at(-1)).toBe("/admin-login"));
    cleanup();
    renderAt("/admin-login", <AdminLoginPage />);
    expect(screen.queryByText("Your session ended. Sign in again.")).toBeNull();
  });
});

const json = (body: unknown) => ({
  headers: { "content-type": "application/json", ...SAME_ORIGIN },
  body: JSON.stringify(body),
});

const codeOf = (secret: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
