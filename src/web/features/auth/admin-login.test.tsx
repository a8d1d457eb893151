import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { testApp } from "#tests/support/app.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
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
  expect(sent).toEqual(["/api/auth/login"]);
  expect(useToastStore.getState().toasts[0]).toMatchObject({
    title: "Login failed",
    description: "Invalid username or password",
  });
});
