import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { siteApp } from "#tests/support/app.ts";
import { createPost } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import BlogPage from "./blog-page.tsx";

afterEach(cleanup);

/** The blog's list at `path`, its reads answered by the real app (one published post). */
async function blogAt(path: string) {
  const t = await siteApp();
  await createPost(t.db, { title: "Lighting on a Budget", slug: "lighting-on-a-budget" });
  routeFetchTo(t.request);
  renderAt(path, <BlogPage />);
}

/**
 * The page's reads sent to the app, those whose address holds `holding` kept back until
 * `release()`; `type` puts a search in the box and waits until its read has gone out.
 */
function holdAnswers(send: (path: string, init?: RequestInit) => Promise<Response>, holding: string) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const sent = routeFetchTo(async (path, init) => {
    if (path.includes(holding)) await gate;
    return send(path, init);
  });
  const type = async (value: string) => {
    fireEvent.change(screen.getByRole("searchbox", { name: "Search articles" }), { target: { value } });
    await waitFor(() => expect(sent.some((call) => call.includes(`q=${value}`))).toBe(true));
  };
  return { release: () => release(), type };
}

test.each([
  ["a single letter", "l"],
  ["two letters", "li"],
  ["punctuation", "?!"],
  ["only the commonest words", "the and"],
])("a search of %s that finds nothing asks to keep typing, not 'No articles found'", async (_what, q) => {
  await blogAt(`/blog?q=${encodeURIComponent(q)}`);
  expect(await screen.findByRole("heading", { name: "Keep typing to search" })).toBeTruthy();
  expect(screen.getByText(/^Three letters or more find every word that starts with them\./).textContent).toContain(
    "the commonest words, such as “the”, are not searched",
  );
  expect(screen.queryByRole("heading", { name: "No articles found" })).toBeNull();
});

test("three letters find the words they start; a word found nowhere is not found", async () => {
  await blogAt("/blog?q=lig");
  expect(await screen.findByText("1 article", { exact: false })).toBeTruthy();
  expect(screen.queryByRole("heading", { name: "Keep typing to search" })).toBeNull();
  cleanup();
  await blogAt("/blog?q=zzqxvbnm");
  expect(await screen.findByRole("heading", { name: "No articles found" })).toBeTruthy();
  expect(screen.queryByRole("heading", { name: "Keep typing to search" })).toBeNull();
});

test("a page after the last offers the first page and the last one, each keeping the search", async () => {
  const t = await siteApp();
  for (let i = 0; i < 14; i++) await createPost(t.db, { title: `Lighting tip number ${i + 1}` });
  routeFetchTo(t.request);
  renderAt("/blog?q=lighting&page=9", <BlogPage />);
  expect(await screen.findByRole("heading", { name: "No page 9 here" })).toBeTruthy();
  expect(screen.getByRole("link", { name: "Go to the first page" }).getAttribute("href")).toBe("/blog?q=lighting");
  const last = await screen.findByRole("link", { name: "the last, page 2" });
  expect(last.getAttribute("href")).toBe("/blog?q=lighting&page=2");
});

test("while the next search's answer loads, what the page says still describes the list it shows", async () => {
  const t = await siteApp();
  await createPost(t.db, { title: "Lighting on a Budget", slug: "lighting-on-a-budget" });
  await createPost(t.db, { title: "Taxes for Cam Models", slug: "taxes" });
  // Answers for a search are held until the test lets them go.
  const { release, type } = holdAnswers(t.request, "q=");
  renderAt("/blog", <BlogPage />);
  const status = await screen.findByText(/^2 articles/);
  await type("l");
  // The two posts are still on screen, and the line says so, not "2 articles found for “l”".
  expect(status.textContent).toBe("2 articles");
  expect(screen.queryByRole("heading", { name: "No articles found" })).toBeNull();
  release();
  expect(await screen.findByRole("heading", { name: "Keep typing to search" })).toBeTruthy();
});

test("a search that was too short stays 'keep typing' until the longer one is answered", async () => {
  const t = await siteApp();
  await createPost(t.db, { title: "Lighting on a Budget", slug: "lighting-on-a-budget" });
  const { release, type } = holdAnswers(t.request, "q=lig");
  renderAt("/blog?q=li", <BlogPage />);
  expect(await screen.findByRole("heading", { name: "Keep typing to search" })).toBeTruthy();
  await type("lig");
  // The answer for "li" is still the one on screen: not "No articles found" for "lig".
  expect(screen.getByRole("heading", { name: "Keep typing to search" })).toBeTruthy();
  expect(screen.queryByRole("heading", { name: "No articles found" })).toBeNull();
  release();
  expect(await screen.findByText("1 article found for “lig”")).toBeTruthy();
});
