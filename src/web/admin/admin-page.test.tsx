import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { clearAdminFlag, setAdminFlag } from "#web/features/auth/admin-session.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { adminApi } from "./admin-client.ts";
import AdminPage from "./admin-page.tsx";
import { readAdminPath } from "./admin-sections.ts";

beforeEach(() => setAdminFlag({ id: 1, username: "admin" }));
afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
  clearAdminFlag();
});

async function dashboardAt(path: string) {
  const app = await adminApp();
  routeFetchTo(app.asAdmin);
  const view = renderAt(path, <AdminPage />);
  await screen.findByRole("heading", { level: 1, name: "Admin Dashboard" });
  return { ...app, ...view, nav: screen.getByRole("navigation", { name: "Admin sections" }) };
}

const current = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole("link")
    .filter((link) => link.getAttribute("aria-current") === "page")
    .map((link) => link.textContent);

describe("the admin's addresses", () => {
  test.each([
    ["/admin", { section: "home" }],
    ["/admin/posts", { section: "posts" }],
    ["/admin/posts/new", { section: "posts", record: "new" }],
    ["/admin/posts/12", { section: "posts", record: "12" }],
    ["/admin/categories", { section: "categories" }],
    ["/admin/offers/3", { section: "offers", record: "3" }],
    ["/admin/products", { section: "products" }],
    ["/admin/settings", { section: "settings" }],
    // The server and the router match addresses whatever their case: so does the section.
    ["/ADMIN/OFFERS/1", { section: "offers", record: "1" }],
    ["/Admin/Settings", { section: "settings" }],
  ])("%s shows %o", (path, address) => {
    expect(readAdminPath(path)).toEqual(address as ReturnType<typeof readAdminPath>);
  });
});

describe("the admin navigation", () => {
  test("a link per section, each to its own address; the current one is marked", async () => {
    const { nav } = await dashboardAt("/admin/offers");
    const links = within(nav).getAllByRole("link");
    expect(links.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      ["Home", "/admin"],
      ["Blog Posts", "/admin/posts"],
      ["Categories", "/admin/categories"],
      ["Pages", "/admin/pages"],
      ["Media", "/admin/media"],
      ["Affiliate Offers", "/admin/offers"],
      ["Recommended Products", "/admin/products"],
      ["Links", "/admin/links"],
      ["Analytics", "/admin/analytics"],
      ["Backups", "/admin/backups"],
      ["Settings", "/admin/settings"],
      ["Account", "/admin/account"],
    ]);
    expect(current(nav)).toEqual(["Affiliate Offers"]);
    await screen.findByRole("button", { name: "New Offer" });
  });

  test("/admin is the home; following a link changes the address and the section", async () => {
    const { nav, location } = await dashboardAt("/admin");
    expect(current(nav)).toEqual(["Home"]);

    fireEvent.click(within(nav).getByRole("link", { name: "Categories" }));
    expect(location.history.at(-1)).toBe("/admin/categories");
    await screen.findByRole("heading", { name: "Add Category" });
    expect(current(screen.getByRole("navigation", { name: "Admin sections" }))).toEqual(["Categories"]);
    // The link just followed keeps the focus.
    expect(document.activeElement?.textContent).toBe("Categories");
  });

  test("Edit opens the post's own address; Cancel goes back to the list's", async () => {
    const { location } = await dashboardAt("/admin/posts");
    const edit = (await screen.findAllByRole("button", { name: /^Edit / }))[0]!;
    const title = edit.textContent!.replace(/^Edit /, "");
    fireEvent.click(edit);
    expect(location.history.at(-1)).toMatch(/^\/admin\/posts\/\d+$/);
    await screen.findByRole("heading", { name: "Edit Post" });
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe(title);

    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(location.history.at(-1)).toBe("/admin/posts");
    await screen.findAllByRole("button", { name: /^Edit / });
  });

  test("New Post opens /admin/posts/new", async () => {
    const { location } = await dashboardAt("/admin/posts");
    const newPost = await screen.findByRole("button", { name: "New Post" });
    // A link to the editor's address (it opens without scripts too).
    expect(newPost.getAttribute("href")).toBe("/admin/posts/new");
    fireEvent.click(newPost);
    expect(location.history.at(-1)).toBe("/admin/posts/new");
    await screen.findByRole("heading", { name: "New Post" });
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("");
  });

  test("an offer opened by its address is in its editor", async () => {
    const { asAdmin } = await adminApp();
    const [offer] = (await (await asAdmin(adminApi["affiliate-offers"])).json()) as { id: number; title: string }[];
    routeFetchTo(asAdmin);
    renderAt(`/admin/offers/${offer!.id}`, <AdminPage />);
    await screen.findByRole("heading", { name: "Edit Offer" });
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe(offer!.title);
  });

  test("an unknown record says so, with the way back to its list", async () => {
    await dashboardAt("/admin/posts/999999");
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByRole("heading", { name: "Not found" })).toBeTruthy();
    expect(within(alert).getByRole("link", { name: "Back to Blog Posts" }).getAttribute("href")).toBe("/admin/posts");
    expect(screen.queryByLabelText("Title")).toBeNull();
  });
});
