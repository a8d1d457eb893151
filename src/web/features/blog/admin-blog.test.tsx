import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Db } from "#server/db/types.ts";
import { SITE_IMAGE_MESSAGE } from "#shared/schema/common.ts";
import { adminApp } from "#tests/support/admin.ts";
import { createPost } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage, messageAt } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi, at } from "#web/admin/admin-client.ts";
import AdminPage from "#web/admin/admin-page.tsx";
import { clearAdminFlag, setAdminFlag } from "#web/features/auth/admin-session.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { CategoriesTab } from "./admin-categories.tsx";
import { PostEditor, PostsTab, SEARCH_DELAY_MS } from "./admin-posts.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
  clearAdminFlag();
});

const lastToast = () => useToastStore.getState().toasts[0]?.description;

function fillPost(title: string) {
  fireEvent.change(screen.getByLabelText("Title"), { target: { value: title } });
  fireEvent.change(screen.getByLabelText("Content"), { target: { value: "<p>Body</p>" } });
}

describe("the post editor shows the server's answer at the field", () => {
  test("a slug another post uses: the message at Slug, the conflict toast", async () => {
    const { asAdmin, database } = await adminApp();
    routeFetchTo(asAdmin);
    const { slug } = database.sqlite.query("SELECT slug FROM blog_posts LIMIT 1").get() as { slug: string };
    renderAt("/admin", <PostEditor post={null} onDone={() => {}} />);
    fillPost("Some title");
    fireEvent.change(screen.getByLabelText("Slug"), { target: { value: slug } });
    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    await messageAt("Slug", "Another post already uses this slug");
    expect(lastToast()).toBe("That slug is already used by another post.");
    expect(fieldMessage("Title")).toBeNull();
  });

  test("a category deleted meanwhile: the message at Category", async () => {
    const { asAdmin } = await adminApp();
    routeFetchTo(asAdmin);
    const temp = await (
      await asAdmin(adminApi.blog.category, { method: "POST", json: { name: "Temporary", slug: "temporary" } })
    ).json();
    renderAt("/admin", <PostEditor post={null} onDone={() => {}} />);
    await screen.findByRole("option", { name: "Temporary" });
    fillPost("A post in a category that goes away");
    fireEvent.change(screen.getByLabelText("Category"), { target: { value: "temporary" } });
    await asAdmin(at(adminApi.blog.category, { id: temp.id }), { method: "DELETE" });
    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    await messageAt("Category", "Choose an existing category");
    expect(document.activeElement).toBe(screen.getByLabelText("Category"));
    expect(lastToast()).toBe("Failed to save post. Please try again.");
    fireEvent.change(screen.getByLabelText("Category"), { target: { value: "" } });
    expect(fieldMessage("Category")).toBeNull();
  });
});

describe("the post editor's own checks and unsaved changes", () => {
  test("an empty Create: the messages at their fields, focus on Title, each message goes once its field is fixed", () => {
    const sent = routeFetchTo(async () => Response.json([]));
    renderAt("/admin", <PostEditor post={null} onDone={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    expect(fieldMessage("Title")).toBe("Title is required, at most 200 characters");
    expect(fieldMessage("Slug")).toBe("Slug is required: lower-case letters, digits and single hyphens");
    expect(fieldMessage("Content")).toBe("Content is required, at most 200,000 characters");
    expect(document.activeElement).toBe(screen.getByLabelText("Title"));
    expect(document.querySelector("[data-form-problems]")).toBeNull();

    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "A first post" } });
    expect(fieldMessage("Title")).toBeNull();
    // The slug follows the title, so its message goes too; the content's stays.
    expect(fieldMessage("Slug")).toBeNull();
    expect(fieldMessage("Content")).toBe("Content is required, at most 200,000 characters");
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "" } });
    expect(fieldMessage("Title")).toBe("Title is required, at most 200 characters");
    expect(sent.filter((call) => !call.startsWith("GET "))).toEqual([]);
  });

  test("Cancel and leaving the page ask only while the form differs from what it was loaded with", () => {
    routeFetchTo(async () => Response.json([]));
    const confirm = spyOn(window, "confirm").mockImplementation(() => false);
    const unload = () => {
      const event = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    try {
      let done = 0;
      renderAt("/admin", <PostEditor post={null} onDone={() => done++} />);
      expect(unload()).toBe(false);
      fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
      expect(confirm).not.toHaveBeenCalled();
      expect(done).toBe(1);

      fireEvent.change(screen.getByLabelText("Excerpt"), { target: { value: "Half written" } });
      expect(unload()).toBe(true);
      fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
      expect(confirm).toHaveBeenCalledWith("You have unsaved changes. Leave without saving?");
      expect(done).toBe(1);

      fireEvent.change(screen.getByLabelText("Excerpt"), { target: { value: "" } });
      expect(unload()).toBe(false);
    } finally {
      confirm.mockRestore();
    }
  });
});

describe("images the site's security policy would block are refused at their field", () => {
  test("a cover image on another website (a post saved before the rule): the message at Cover image, nothing sent", async () => {
    const { asAdmin, database } = await adminApp();
    const sent = routeFetchTo(asAdmin);
    database.sqlite.run("UPDATE blog_posts SET cover_image = 'https://images.example/cover.jpg'");
    const { id } = (await (await asAdmin(adminApi.blog.posts)).json()).posts[0];
    const post = await (await asAdmin(at(adminApi.blog.post, { id }))).json();
    renderAt("/admin", <PostEditor post={post} onDone={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Update Post" }));
    const message = await screen.findByText(SITE_IMAGE_MESSAGE);
    expect(screen.getByRole("button", { name: "Remove" }).getAttribute("aria-describedby")).toBe(message.id);
    expect(sent.filter((call) => !call.startsWith("GET "))).toEqual([]);
  });

  test("an image from another website in the content: the server's message at Content", async () => {
    const { asAdmin, database } = await adminApp();
    routeFetchTo(asAdmin);
    const before = database.sqlite.query("SELECT count(*) AS n FROM blog_posts").get();
    renderAt("/admin", <PostEditor post={null} onDone={() => {}} />);
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "With a foreign image" } });
    fireEvent.change(screen.getByLabelText("Content"), {
      target: { value: '<p>Look:</p><img src="https://images.example/a.png">' },
    });
    fireEvent.click(screen.getByRole("button", { name: "Create Post" }));
    await messageAt(
      "Content",
      "Images in the content must be uploaded here: the site's security policy blocks images from other websites (https://images.example/a.png)",
    );
    expect(database.sqlite.query("SELECT count(*) AS n FROM blog_posts").get()).toEqual(before);
  });
});

test("the category form shows a slug already used at Slug", async () => {
  const { asAdmin } = await adminApp();
  routeFetchTo(asAdmin);
  renderAt("/admin", <CategoriesTab />);
  fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Tips and tricks" } });
  fireEvent.click(screen.getByRole("button", { name: "Add Category" }));
  await messageAt("Slug", "Another category already uses this slug");
  expect(lastToast()).toBe("Failed to create category.");
});

describe("the posts list", () => {
  test("names each post's category and links only published posts to their page", async () => {
    const { asAdmin } = await adminApp();
    routeFetchTo(asAdmin);
    await asAdmin(adminApi.blog.category, {
      method: "POST",
      json: { name: "Going Live Safely", slug: "live-safe" },
    });
    for (const [title, slug, published] of [
      ["A published post in a named category", "published-in-category", true],
      ["A draft post in a named category", "draft-in-category", false],
    ] as const) {
      const made = await asAdmin(adminApi.blog.post, {
        method: "POST",
        json: { title, slug, content: "<p>Body</p>", category: "live-safe", published },
      });
      expect(made.status).toBeLessThan(300);
    }
    renderAt("/admin", <PostsTab onEdit={() => {}} onNew={() => {}} />);

    const published = await screen.findByRole("row", { name: /A published post in a named category/ });
    await within(published).findByText("Going Live Safely");
    expect(within(published).queryByText("live-safe")).toBeNull();
    const view = within(published).getByRole("link", { name: /View on site/ });
    expect(view.getAttribute("href")).toBe("/blog/published-in-category");

    const draft = screen.getByRole("row", { name: /A draft post in a named category/ });
    expect(within(draft).getByText("Draft")).toBeTruthy();
    expect(within(draft).getByText("Going Live Safely")).toBeTruthy();
    expect(within(draft).queryByRole("link", { name: /View on site/ })).toBeNull();
    expect(within(draft).getByRole("button", { name: "Edit A draft post in a named category" })).toBeTruthy();
  });
});

/** `count` posts titled "Post 0" (the oldest) to "Post <count - 1>", a minute apart, and a few to search for. */
async function manyPosts(db: Db, count: number) {
  for (let i = 0; i < count; i++)
    await createPost(db, { title: `Post ${i}`, slug: `post-${i}`, createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)) });
  for (const [i, title] of ["Ring Light Basics", "Lighting on a Budget", "100% Honest Reviews"].entries())
    await createPost(db, { title, createdAt: new Date(Date.UTC(2029, 0, 1, i)) });
}

/** The list's requests among those sent, as "page q" (what the server was asked for). */
const listRequests = (sent: string[]) =>
  sent
    .filter((line) => line.startsWith(`GET ${adminApi.blog.posts["~path"]}`))
    .map((line) => {
      const query = new URL(line.slice(4), "http://localhost").searchParams;
      return `${query.get("page") ?? "1"} ${query.get("q") ?? ""}`.trim();
    });

const pages = () => screen.getByRole("navigation", { name: "Pages of posts" });
const titles = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((row) => row.querySelector('[data-label="Title"]')!.textContent);

describe("the posts list: a page at a time, searched by the server", () => {
  test("20 posts a page, newest first; Previous and Next follow the pages' addresses", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    await manyPosts(db, 42);
    const sent = routeFetchTo(asAdmin);
    const { location } = renderAt("/admin/posts", <PostsTab onEdit={() => {}} onNew={() => {}} />);
    await screen.findByRole("row", { name: /Post 41/ });
    expect(titles()).toEqual(Array.from({ length: 20 }, (_, i) => `Post ${41 - i}`));
    expect(screen.getByText("45 posts")).toBeTruthy();
    expect(within(pages()).getByText("Page 1 of 3")).toBeTruthy();
    expect((within(pages()).getByRole("button", { name: "Previous" }) as HTMLButtonElement).disabled).toBe(true);
    const next = within(pages()).getByRole("button", { name: "Next" });
    // A link to the next page's address: a keyboard follows it, a new tab opens it.
    expect(next.tagName).toBe("A");
    expect(next.getAttribute("href")).toBe("/admin/posts?page=2");

    fireEvent.click(next);
    expect(location.history.at(-1)).toBe("/admin/posts?page=2");
    await screen.findByRole("row", { name: /Post 21/ });
    expect(titles()).toEqual(Array.from({ length: 20 }, (_, i) => `Post ${21 - i}`));
    expect(within(pages()).getByText("Page 2 of 3")).toBeTruthy();

    fireEvent.click(within(pages()).getByRole("button", { name: "Next" }));
    await screen.findByRole("row", { name: /100% Honest Reviews/ });
    expect(titles()).toEqual(["Post 1", "Post 0", "100% Honest Reviews", "Lighting on a Budget", "Ring Light Basics"]);
    expect((within(pages()).getByRole("button", { name: "Next" }) as HTMLButtonElement).disabled).toBe(true);
    const previous = within(pages()).getByRole("button", { name: "Previous" });
    expect(previous.getAttribute("href")).toBe("/admin/posts?page=2");
    expect(listRequests(sent)).toEqual(["1", "2", "3"]);
    // No row came with the text of its post.
    expect(sent.some((line) => line.startsWith(`GET ${adminApi.blog.post["~path"]}/`))).toBe(false);
  });

  test("typing searches once the typing pauses: the address holds it, from the first page; no match says so", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    await manyPosts(db, 25);
    const sent = routeFetchTo(asAdmin);
    const { location } = renderAt("/admin/posts?page=2", <PostsTab onEdit={() => {}} onNew={() => {}} />);
    await screen.findByRole("row", { name: /Post 4/ });
    const box = screen.getByRole("searchbox", { name: "Search posts" });
    for (const typed of ["L", "LI", "LIGHT"]) fireEvent.change(box, { target: { value: typed } });
    await screen.findByText("2 posts match “LIGHT”", {}, { timeout: SEARCH_DELAY_MS + 3000 });
    expect(location.history.at(-1)).toBe("/admin/posts?q=LIGHT");
    expect(titles()).toEqual(["Lighting on a Budget", "Ring Light Basics"]);
    // One search for the whole word, not one per key; one page: no page links.
    expect(listRequests(sent)).toEqual(["2", "1 LIGHT"]);
    expect(screen.queryByRole("navigation", { name: "Pages of posts" })).toBeNull();

    // LIKE's wildcards are plain characters: "%" finds only the title that has one.
    fireEvent.change(box, { target: { value: "100%" } });
    await screen.findByText("1 post matches “100%”", {}, { timeout: SEARCH_DELAY_MS + 3000 });
    expect(titles()).toEqual(["100% Honest Reviews"]);

    fireEvent.change(box, { target: { value: "no such post" } });
    const none = await screen.findByText("No posts match “no such post”.", {}, { timeout: SEARCH_DELAY_MS + 3000 });
    expect(screen.queryByRole("table")).toBeNull();
    fireEvent.click(within(none.parentElement!).getByRole("button", { name: "Clear the search" }));
    expect(location.history.at(-1)).toBe("/admin/posts");
    expect((box as HTMLInputElement).value).toBe("");
    await screen.findByRole("row", { name: /Post 24/ });
  });

  test("an address with a page and a search opens there, the search in its box", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    await manyPosts(db, 30);
    routeFetchTo(asAdmin);
    // "Post 1" and "Post 10" to "Post 19": 11 found, 20 a page.
    renderAt("/admin/posts?q=post%201&page=1", <PostsTab onEdit={() => {}} onNew={() => {}} />);
    await screen.findByText("11 posts match “post 1”");
    expect((screen.getByRole("searchbox", { name: "Search posts" }) as HTMLInputElement).value).toBe("post 1");
    expect(titles()).toEqual([
      "Post 19",
      "Post 18",
      "Post 17",
      "Post 16",
      "Post 15",
      "Post 14",
      "Post 13",
      "Post 12",
      "Post 11",
      "Post 10",
      "Post 1",
    ]);
  });

  test("a page past the last says so and leads to the last one", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    await manyPosts(db, 22);
    routeFetchTo(asAdmin);
    const { location } = renderAt("/admin/posts?page=9", <PostsTab onEdit={() => {}} onNew={() => {}} />);
    await screen.findByText("There is no page 9: the posts fill 2 pages.");
    const last = screen.getByRole("button", { name: "Go to page 2" });
    expect(last.getAttribute("href")).toBe("/admin/posts?page=2");
    fireEvent.click(last);
    expect(location.history.at(-1)).toBe("/admin/posts?page=2");
    await screen.findByRole("row", { name: /Ring Light Basics/ });
  });

  test("a post deleted from the list: the list is asked again and counts one fewer", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    await manyPosts(db, 2);
    routeFetchTo(asAdmin);
    renderAt("/admin/posts", <PostsTab onEdit={() => {}} onNew={() => {}} />);
    await screen.findByText("5 posts");
    fireEvent.click(screen.getByRole("button", { name: "Delete Ring Light Basics" }));
    fireEvent.click(
      within(await screen.findByRole("dialog", { name: "Delete Post" })).getByRole("button", { name: "Delete" }),
    );
    await screen.findByText("4 posts");
    expect(screen.queryByRole("row", { name: /Ring Light Basics/ })).toBeNull();
  });
});

describe("the post editor opens its post by id", () => {
  test("Edit: the editor says it is loading, then holds the whole post; Cancel goes back to the same page and search", async () => {
    setAdminFlag({ id: 1, username: "admin" });
    const { asAdmin, db } = await adminApp({ seed: false });
    await manyPosts(db, 30);
    const sent = routeFetchTo(asAdmin);
    const { location } = renderAt("/admin/posts?page=2&q=post", <AdminPage />);
    const edit = await screen.findByRole("button", { name: "Edit Post 9" });
    fireEvent.click(edit);
    expect(location.history.at(-1)).toMatch(/^\/admin\/posts\/\d+$/);
    const id = location.history.at(-1)!.split("/").pop();
    expect(screen.getByRole("status").textContent).toBe("Loading the post...");
    await screen.findByRole("heading", { name: "Edit Post" });
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Post 9");
    expect((screen.getByLabelText("Content") as HTMLTextAreaElement).value).toContain("Words worth reading.");
    expect(sent).toContain(`GET ${adminApi.blog.post["~path"]}/${id}`);

    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(location.history.at(-1)).toBe("/admin/posts?page=2&q=post");
    await screen.findByRole("button", { name: "Edit Post 9" });
  });

  test("a post deleted meanwhile: its address says it no longer exists, with the way back", async () => {
    setAdminFlag({ id: 1, username: "admin" });
    const { asAdmin, db } = await adminApp({ seed: false });
    const post = await createPost(db, { title: "Soon Gone" });
    await asAdmin(at(adminApi.blog.post, { id: post.id }), { method: "DELETE" });
    routeFetchTo(asAdmin);
    renderAt(`/admin/posts/${post.id}`, <AdminPage />);
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert.textContent).toContain("This post no longer exists: it may have been deleted."));
    expect(within(alert).getByRole("link", { name: "Back to Blog Posts" }).getAttribute("href")).toBe("/admin/posts");
  });
});
