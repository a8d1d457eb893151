// Renders the seed's raster images with Chromium: a cover per blog post in content/ and
// the default social card. Run when posts change: `bun scripts/generate-images.ts`.
// (Social networks do not show SVG previews, so these are JPEG.)

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";

const root = join(import.meta.dir, "..");
const PALETTES: Record<string, [string, string, string]> = {
  "getting-started": ["#1b5e20", "#00695c", "Getting Started"],
  "tips-and-tricks": ["#0d47a1", "#00838f", "Tips and Tricks"],
  "platform-reviews": ["#4a148c", "#ad1457", "Platform Reviews"],
  "income-strategies": ["#8d4a00", "#c2185b", "Income Strategies"],
};

function escapeHtml(s: string) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

function card(title: string, eyebrow: string, from: string, to: string) {
  return `<!DOCTYPE html><html><body style="margin:0">
<div style="width:1200px;height:630px;box-sizing:border-box;padding:80px;display:flex;flex-direction:column;justify-content:flex-end;
background:linear-gradient(135deg, ${from}, ${to});font-family:'DejaVu Sans',system-ui,sans-serif;color:#fff;position:relative;overflow:hidden">
<div style="position:absolute;right:-120px;top:-120px;width:520px;height:520px;border-radius:50%;background:rgba(255,255,255,.08)"></div>
<div style="position:absolute;left:-160px;bottom:-220px;width:560px;height:560px;border-radius:50%;background:rgba(255,255,255,.06)"></div>
<div style="font-size:30px;letter-spacing:4px;text-transform:uppercase;opacity:.85;margin-bottom:24px">${escapeHtml(eyebrow)}</div>
<div style="font-size:64px;font-weight:700;line-height:1.12;max-width:1000px">${escapeHtml(title)}</div>
</div></body></html>`;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
async function render(html: string, file: string) {
  await page.setContent(html);
  writeFileSync(file, await page.screenshot({ type: "jpeg", quality: 78 }));
  console.log("wrote", file.replace(`${root}/`, ""));
}

const postsDir = join(root, "content", "blog", "posts");
for (const name of readdirSync(postsDir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const post = JSON.parse(readFileSync(join(postsDir, name), "utf8")) as {
    slug: string;
    title: string;
    category: string;
  };
  const [from, to, label] = PALETTES[post.category] ?? ["#333", "#666", "Guide"];
  await render(card(post.title, label, from, to), join(root, "public", "seed", "blog", `${post.slug}.jpg`));
}
await render(
  card("Find your cam model alter ego", "Quiz · Earnings · Free course", "#c2185b", "#4a148c"),
  join(root, "public", "seed", "social-card.jpg"),
);
await browser.close();
