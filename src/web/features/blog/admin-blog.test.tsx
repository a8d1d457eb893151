import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";
import { SITE_IMAGE_MESSAGE } from "#shared/schema/common.ts";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage, messageAt } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { CategoriesTab } from "./admin-categories.tsx";
import { PostEditor, PostsTab } from "./admin-posts.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
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
    const post = (await (await asAdmin(adminApi.blog.posts)).json())[0];
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
