import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures.ts";

// The writing editor as a site owner who writes no HTML: the toolbar, a pasted link, an
// uploaded image and the live preview, then the public page.

/** Selects `text` in the box, as a person would with the mouse or Shift and the arrows. */
async function select(box: Locator, text: string) {
  await box.evaluate((element, wanted) => {
    const area = element as HTMLTextAreaElement;
    const start = area.value.lastIndexOf(wanted);
    area.focus();
    area.setSelectionRange(start, start + wanted.length);
  }, text);
}

/** Pastes plain text into the box as the clipboard would. */
async function paste(box: Locator, text: string) {
  await box.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function newPost(page: Page) {
  await signIn(page);
  await page.goto("/admin/posts/new");
  await expect(page.getByRole("heading", { name: "New Post" })).toBeVisible();
  // The toolbar's module has loaded once its buttons are defined.
  await page.waitForFunction(() => customElements.get("md-bold") !== undefined);
  return page.getByLabel("Content", { exact: true });
}

test("a post written with the toolbar, a pasted link and an uploaded image shows a list, bold text, a working link and the image", async ({
  page,
  scan,
  baseURL,
}) => {
  const box = await newPost(page);
  await page.getByLabel("Title").fill("Three steps to better light");
  const toolbar = page.getByRole("toolbar", { name: "Content: formatting" });

  await box.fill("Light matters more than the camera.\n\nBuy a lamp\nAim it at your face\n\nRead the guide first.");
  await select(box, "more than the camera");
  await toolbar.getByRole("button", { name: "Bold" }).click();
  await select(box, "Buy a lamp\nAim it at your face");
  await toolbar.getByRole("button", { name: "Numbered list" }).click();
  const guide = `${baseURL}/learn-more`;
  await select(box, "the guide");
  await paste(box, guide);
  await expect(box).toHaveValue(
    `Light matters **more than the camera**.\n\n1. Buy a lamp\n2. Aim it at your face\n\nRead [the guide](${guide}) first.`,
  );

  // The caret at the end; the image goes on a line of its own there.
  await box.evaluate((element) => {
    const area = element as HTMLTextAreaElement;
    area.setSelectionRange(area.value.length, area.value.length);
  });
  await toolbar.getByRole("button", { name: "Image" }).click();
  const dialog = page.getByRole("dialog", { name: "Insert an image" });
  await dialog.getByLabel("Image file").setInputFiles(join(import.meta.dir, "..", "fixtures", "cover.jpg"));
  await dialog.getByLabel("Description (alt text)").fill("A lamp beside a laptop");
  await dialog.getByRole("button", { name: "Upload and insert" }).click();
  await expect(dialog).toBeHidden();
  await expect(box).toHaveValue(/\n\n!\[A lamp beside a laptop\]\(\/uploads\/[^)]+\)\n\n$/);
  // The media library keeps the description too, offered whenever the image is chosen again.
  const media = (await (await page.request.get("/api/admin/media")).json()) as { url: string; alt: string }[];
  const inserted = /\((\/uploads\/[^)]+)\)/.exec(await box.inputValue())![1];
  expect(media.find((m) => m.url === inserted)?.alt).toBe("A lamp beside a laptop");

  // The preview beside the text, rendered by the server, in the post's typography.
  const preview = page.getByRole("region", { name: "Content: preview" }).locator(".post-content");
  await expect(preview.locator("ol > li")).toHaveCount(2);
  await expect(preview.locator("strong")).toHaveText("more than the camera");
  await expect(preview.getByRole("link", { name: "the guide" })).toHaveAttribute("href", guide);
  await expect(preview.getByRole("img", { name: "A lamp beside a laptop" })).toBeVisible();
  await scan();

  await page.getByLabel("Publish post").check();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post created successfully");

  await page.goto("/blog/three-steps-to-better-light");
  const post = page.locator(".post-content");
  await expect(post.locator("ol > li")).toHaveText(["Buy a lamp", "Aim it at your face"]);
  await expect(post.locator("strong")).toHaveText("more than the camera");
  const image = post.getByRole("img", { name: "A lamp beside a laptop" });
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const opened = page.waitForEvent("popup");
  await post.getByRole("link", { name: "the guide" }).click();
  const guidePage = await opened;
  await guidePage.waitForLoadState();
  expect(guidePage.url()).toBe(guide);
  await guidePage.close();
});

test("on a phone the editor fits, its toolbar works from the keyboard, and Write/Preview switch", async ({
  page,
  scan,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const box = await newPost(page);
  await box.fill("Say hello");
  await select(box, "hello");

  // Shift+Tab from the text box reaches the toolbar, one tab stop; the arrows move inside it.
  const toolbar = page.getByRole("toolbar", { name: "Content: formatting" });
  await page.keyboard.press("Shift+Tab");
  await expect(toolbar.getByRole("button", { name: "Heading" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(toolbar.getByRole("button", { name: "Bold" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(box).toHaveValue("Say **hello**");
  // The text box has the focus again; the toolbar's stop stays on the last tool used.
  await expect(box).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(toolbar.getByRole("button", { name: "Bold" })).toBeFocused();
  await page.keyboard.press("End");
  await expect(toolbar.getByRole("button", { name: "Video" })).toBeFocused();
  await page.keyboard.press("Enter");
  const video = page.getByRole("dialog", { name: "Insert a video" });
  await expect(video.getByLabel("YouTube or Vimeo address")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(video).toBeHidden();
  await expect(toolbar.getByRole("button", { name: "Video" })).toBeFocused();

  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await fits()).toBe(true);
  const preview = page.getByRole("region", { name: "Content: preview" });
  await expect(preview).toBeHidden();
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(preview.locator("strong")).toHaveText("hello");
  await expect(box).toBeHidden();
  expect(await fits()).toBe(true);
  await scan();
  await page.getByRole("button", { name: "Write", exact: true }).click();
  await expect(box).toBeVisible();
});

test("a managed link chosen in the editor is an affiliate link in the post: a new tab, the label, counted with the post", async ({
  page,
  scan,
  baseURL,
}) => {
  const own = new URL(baseURL!).origin;
  // The link's destination is another site: the test answers for it, as the partner would.
  await page.context().route(
    (url) => url.origin !== own,
    (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Partner</title>" }),
  );
  const box = await newPost(page);
  await page.getByLabel("Title").fill("Where I signed up");
  await box.fill("I signed up on Platform Two last spring.");
  await select(box, "Platform Two");
  await page
    .getByRole("toolbar", { name: "Content: formatting" })
    .getByRole("button", { name: "Managed link" })
    .click();
  const dialog = page.getByRole("dialog", { name: "Insert a managed link" });
  await expect(dialog.getByLabel("Link text")).toHaveValue("Platform Two");
  await dialog.getByLabel("Managed link").selectOption("platform-two");
  await scan();
  await dialog.getByRole("button", { name: "Insert link" }).click();
  await expect(dialog).toBeHidden();
  await expect(box).toHaveValue("I signed up on [Platform Two](/go/platform-two) last spring.");
  await page.getByLabel("Publish post").check();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByTestId("toast")).toContainText("Post created successfully");

  const clicksIn = async (placement: string) => {
    const links = (await (await page.request.get("/api/admin/links")).json()) as {
      slug: string;
      clicks: { placements: { placement: string; days7: number }[] };
    }[];
    const link = links.find((l) => l.slug === "platform-two");
    return link?.clicks.placements.find((p) => p.placement === placement)?.days7 ?? 0;
  };
  const before = await clicksIn("post:where-i-signed-up");

  await page.goto("/blog/where-i-signed-up");
  const link = page.locator(".post-content").getByRole("link", { name: /Platform Two/ });
  await expect(link).toHaveAttribute("href", "/go/platform-two?p=post:where-i-signed-up");
  await expect(link).toHaveAttribute("rel", "sponsored noopener");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAccessibleName("Platform Two (opens in a new tab)");
  // The label the footer's note promises, right after the link, which names it.
  const label = page.locator(".post-content .affiliate-label");
  await expect(label).toHaveText("Affiliate link");
  await expect(label).toBeVisible();
  await expect(link).toHaveAccessibleDescription("Affiliate link");
  await scan();
  const [tab] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  await tab.waitForLoadState();
  await tab.close();
  await expect.poll(() => clicksIn("post:where-i-signed-up")).toBe(before + 1);
});

test("a video in a post loads nothing from another site until the reader asks; without JavaScript it is a link to the video", async ({
  page,
  browser,
  scan,
  baseURL,
}) => {
  const own = new URL(baseURL!).origin;
  await signIn(page);
  const created = await page.request.post("/api/admin/blog/post", {
    data: {
      title: "A lighting walkthrough on video",
      slug: "lighting-walkthrough-video",
      contentMarkdown: "Watch the set-up first.\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n\nThen try it.",
      excerpt: "A short video on lighting a small room.",
      category: null,
      coverImage: null,
      published: true,
      metaDescription: "",
      metaKeywords: "",
    },
  });
  expect(created.status()).toBe(201);

  const elsewhere: string[] = [];
  page.context().on("request", (request) => {
    if (new URL(request.url()).origin !== own) elsewhere.push(request.url());
  });
  // The player's site is answered by the test (the machine may have no internet).
  await page.context().route(
    (url) => url.origin !== own,
    (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Player</title>" }),
  );
  await page.goto("/blog/lighting-walkthrough-video");
  const placeholder = page.locator(".post-content .video-placeholder");
  await expect(placeholder).toContainText("plays from youtube-nocookie.com");
  await expect(placeholder.getByRole("link", { name: "Watch it on youtube.com" })).toHaveAttribute(
    "href",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  );
  await scan();
  await page.mouse.wheel(0, 2000);
  await page.waitForTimeout(500);
  expect(elsewhere).toEqual([]);

  await placeholder.getByRole("button", { name: "Load video" }).click();
  const player = page.locator(".post-content iframe");
  await expect(player).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0");
  await expect(player).toBeFocused();
  await expect.poll(() => elsewhere.length).toBeGreaterThan(0);
  expect(elsewhere[0]).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ/);

  // Without JavaScript: no button that could not work, the link to the video, no frame.
  const noJs = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const plain = await noJs.newPage();
  await plain.goto("/blog/lighting-walkthrough-video");
  await expect(plain.getByRole("button", { name: "Load video" })).toBeHidden();
  await expect(plain.getByRole("link", { name: "Watch it on youtube.com" })).toBeVisible();
  await expect(plain.locator("iframe")).toHaveCount(0);
  await noJs.close();
});

test("Enter on an empty list item ends the list: the next sentence typed is a paragraph, bulleted or numbered", async ({
  page,
}) => {
  const box = await newPost(page);
  const preview = page.getByRole("region", { name: "Content: preview" }).locator(".post-content");
  for (const [first, list] of [
    ["- ", "ul"],
    ["1. ", "ol"],
  ] as const) {
    await box.fill("");
    await box.focus();
    await page.keyboard.type(`${first}Buy a lamp`);
    await page.keyboard.press("Enter");
    await page.keyboard.type("Aim it at your face");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Then test the light.");
    await expect(preview.locator(`${list} > li`)).toHaveText(["Buy a lamp", "Aim it at your face"]);
    await expect(preview.locator("p")).toHaveText("Then test the light.");
  }
});
