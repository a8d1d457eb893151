import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ComponentProps } from "react";
import { toAdminPost } from "#server/features/blog/admin-service.ts";
import { adminApp } from "#tests/support/admin.ts";
import { createPost } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { useToastStore } from "#web/stores/toast.ts";
import { PostEditor, PostsTab } from "./admin-posts.tsx";
import { fromLocalInput, toLocalInput } from "./publish-date.tsx";
import { SocialPreview } from "./social-preview.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
  localStorage.clear();
});

describe("the search and social preview", () => {
  const blank: ComponentProps<typeof SocialPreview> = {
    title: "",
    slug: "",
    metaDescription: "",
    excerpt: "",
    coverImage: null,
  };

  const showPreview = (fields: Partial<typeof blank>) =>
    renderAt("/admin/posts/new", <SocialPreview {...blank} title="Lighting Tips" slug="lighting" {...fields} />);

  test("uses the post page's fallbacks: the excerpt, then the blog's description; the site's card image", () => {
    showPreview({});
    const result = within(screen.getByTestId("search-result"));
    expect(result.getByText("Lighting Tips | Cam Guide")).toBeTruthy();
    expect(result.getByText(/\/blog\/lighting$/)).toBeTruthy();
    expect(result.getByText(/^Practical, honest guides for new webcam models/)).toBeTruthy();
    const card = screen.getByTestId("share-card");
    expect(card.querySelector("img")!.getAttribute("src")).toBe("/seed/social-card.jpg");

    cleanup();
    showPreview({ excerpt: "Window light is free.", coverImage: "/uploads/a.jpg" });
    expect(within(screen.getByTestId("search-result")).getByText("Window light is free.")).toBeTruthy();
    expect(screen.getByTestId("share-card").querySelector("img")!.getAttribute("src")).toBe("/uploads/a.jpg");

    cleanup();
    showPreview({ excerpt: "Window light is free.", metaDescription: "The meta one." });
    expect(within(screen.getByTestId("search-result")).getByText("The meta one.")).toBeTruthy();
  });

  test("says when the title or the description is longer than a search result shows, and cuts it there", () => {
    const long = "A".repeat(200);
    renderAt("/admin/posts/new", <SocialPreview {...blank} title="Short" slug="s" metaDescription={long} />);
    expect(screen.getByText(/Description: 200 characters — search engines show about 160/)).toBeTruthy();
    expect(screen.getByText(/Title: 17 characters \(about 60 are shown\)/)).toBeTruthy();
    const shown = within(screen.getByTestId("search-result")).getByText(/^A+…$/);
    expect(shown.textContent!.length).toBe(160);
  });

  test("follows the form as the admin types", () => {
    routeFetchTo(async () => Response.json({ autosave: null }));
    renderAt("/admin/posts/new", <PostEditor post={null} onDone={() => {}} />);
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Typed Title" } });
    fireEvent.change(screen.getByLabelText("Meta description"), { target: { value: "Typed description." } });
    const result = within(screen.getByTestId("search-result"));
    expect(result.getByText("Typed Title | Cam Guide")).toBeTruthy();
    expect(result.getByText(/\/blog\/typed-title$/)).toBeTruthy();
    expect(result.getByText("Typed description.")).toBeTruthy();
  });
});

describe("the publish date", () => {
  test("is typed in local time and sent as UTC", () => {
    const iso = fromLocalInput("2031-03-01T10:05")!;
    expect(new Date(iso).getHours()).toBe(10);
    expect(toLocalInput(iso)).toBe("2031-03-01T10:05");
    expect(fromLocalInput("")).toBeNull();
  });

  test("the posts list says Published, Scheduled with its date, or Draft, with a preview for the last two", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    await createPost(db, { title: "Live One", slug: "live" });
    await createPost(db, { title: "Later One", slug: "later", publishAt: new Date("2099-01-01T09:00:00Z") });
    await createPost(db, { title: "Draft One", slug: "draft", published: false });
    routeFetchTo(asAdmin);
    renderAt("/admin/posts", <PostsTab onEdit={() => {}} onNew={() => {}} />);
    const row = async (title: string) => within((await screen.findAllByText(title))[0]!.closest("tr")!);
    const status = async (title: string) =>
      (await screen.findAllByText(title))[0]!.closest("tr")!.querySelector('[data-label="Status"]')!.textContent;
    expect(await status("Live One")).toBe("Published");
    expect(await status("Later One")).toMatch(/^Scheduled for .*2099.* Preview/);
    expect(await status("Draft One")).toMatch(/^Draft Preview/);
    const preview = (await row("Draft One")).getByRole("link", { name: /Preview Draft One/ });
    expect(preview.getAttribute("href")).toMatch(/^\/admin\/preview\/post\/\d+$/);
    expect((await row("Live One")).queryByRole("link", { name: /Preview/ })).toBeNull();
  });

  test("the editor sends the date as UTC with the post", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    const row = await createPost(db, { title: "To Schedule", slug: "to-schedule" });
    routeFetchTo(asAdmin);
    let done = false;
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => (done = true)} />);
    fireEvent.change(screen.getByLabelText("Publish date"), { target: { value: "2031-03-01T10:05" } });
    expect(screen.getByText(/Scheduled: visitors see the post from/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Update Post" }));
    await waitFor(() => expect(done).toBe(true));
    const saved = await (await asAdmin(at(adminApi.blog.post, { id: row.id }))).json();
    expect(saved.publishAt).toBe(fromLocalInput("2031-03-01T10:05"));
  });
});

describe("autosave in the editor", () => {
  test("keeps a copy a moment after a change, says so, and never changes the post", async () => {
    const { asAdmin, db } = await adminApp({ seed: false });
    const row = await createPost(db, { title: "Saved Title", slug: "saved" });
    routeFetchTo(asAdmin);
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    expect(screen.getByText(/^Last saved /)).toBeTruthy();
    // The first look for a copy has to finish before a change is kept.
    await waitFor(() => expect(document.querySelector(".autosave-status")).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 50));
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Changed Title" } });
    await screen.findByText(/^Saved as a draft copy at \d\d:\d\d/, {}, { timeout: 6000 });
    const { autosave } = await (await asAdmin(at(adminApi.autosave, { key: `post:${row.id}` }))).json();
    expect(autosave.body.title).toBe("Changed Title");
    expect(JSON.parse(localStorage.getItem(`autosave:post:${row.id}`)!).body.title).toBe("Changed Title");
    const live = await (await asAdmin(at(adminApi.blog.post, { id: row.id }))).json();
    expect(live.title).toBe("Saved Title");
  }, 10000);

  /** A post saved at `updatedAt`, a copy of it on the server (kept now), and its editor's key. */
  async function postWithServerCopy(body: Record<string, string>, updatedAt = new Date("2020-01-01T00:00:00Z")) {
    const { asAdmin, db } = await adminApp({ seed: false });
    const row = await createPost(db, { title: "Saved Title", slug: "saved", updatedAt });
    await asAdmin(at(adminApi.autosave, { key: `post:${row.id}` }), { method: "PUT", json: { body } });
    routeFetchTo(asAdmin);
    return { row, asAdmin, key: `autosave:post:${row.id}` };
  }

  test("offers back a copy newer than the saved post: Restore fills the form, Discard forgets it", async () => {
    const { row, asAdmin } = await postWithServerCopy({ title: "Unsaved Title", excerpt: "Unsaved excerpt" });
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    fireEvent.click(await screen.findByRole("button", { name: /^Restore unsaved changes from / }));
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Unsaved Title");
    expect((screen.getByLabelText("Excerpt") as HTMLTextAreaElement).value).toBe("Unsaved excerpt");
    expect(screen.queryByRole("button", { name: /^Restore/ })).toBeNull();
    cleanup();

    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    fireEvent.click(await screen.findByRole("button", { name: "Discard" }));
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Saved Title");
    await waitFor(async () =>
      expect((await (await asAdmin(at(adminApi.autosave, { key: `post:${row.id}` }))).json()).autosave).toBeNull(),
    );
  });

  const keepInBrowser = (key: string, title: string, savedAt: Date) =>
    localStorage.setItem(
      key,
      JSON.stringify({ key: key.slice("autosave:".length), body: { title }, savedAt: savedAt.toISOString() }),
    );
  const title = () => (screen.getByLabelText("Title") as HTMLInputElement).value;
  const restore = async () =>
    fireEvent.click(await screen.findByRole("button", { name: /^Restore unsaved changes from / }));

  test("offers the newest copy: this browser's when it was kept after the server's", async () => {
    const { row, key } = await postWithServerCopy({ title: "The server's copy" });
    keepInBrowser(key, "This browser's copy", new Date(Date.now() + 60_000));
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    await restore();
    expect(title()).toBe("This browser's copy");
  });

  test("offers the newest copy: the server's when it was kept after this browser's", async () => {
    const { row, key } = await postWithServerCopy({ title: "The server's copy" });
    keepInBrowser(key, "This browser's copy", new Date("2021-01-01T00:00:00Z"));
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    await restore();
    expect(title()).toBe("The server's copy");
  });

  test("a copy on offer goes once the admin types; what is typed is kept in this browser at once and offered next time, never the older copy", async () => {
    const { row, key } = await postWithServerCopy({ title: "An older copy" });
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    await screen.findByRole("button", { name: /^Restore unsaved changes from / });
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Typed just now" } });
    // The form now holds the newest text: the older copy is not offered over it.
    await waitFor(() => expect(screen.queryByRole("button", { name: /^Restore/ })).toBeNull());
    // Kept in this browser straight away, before the server's copy a few seconds later.
    await waitFor(() => expect(JSON.parse(localStorage.getItem(key) ?? "{}").body?.title).toBe("Typed just now"));
    cleanup();

    // The page is closed at once (a reload, a session that ended): opened again, the editor
    // offers what was typed, not the server's older copy.
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    await restore();
    expect(title()).toBe("Typed just now");
  });

  test("offers nothing when the copy is older than the saved post", async () => {
    const { row, asAdmin } = await postWithServerCopy({ title: "Old copy" }, new Date("2099-01-01T00:00:00Z"));
    renderAt("/admin/posts/1", <PostEditor post={toAdminPost(row)} onDone={() => {}} />);
    await waitFor(async () =>
      expect((await (await asAdmin(at(adminApi.autosave, { key: `post:${row.id}` }))).json()).autosave).toBeNull(),
    );
    expect(screen.queryByRole("button", { name: /^Restore/ })).toBeNull();
  });
});
