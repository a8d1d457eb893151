import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page, Response } from "@playwright/test";

/**
 * Every page the journeys visit is kept for the Nu HTML Checker, which runs once over all of
 * them after the journeys (tests/e2e/validate-html.ts): Java's start costs seconds, a page
 * costs milliseconds. Two forms of each page are kept: the document as the server sent it, and
 * the page as the browser holds it when the journey scans it (hydrated, after the visitor's
 * steps), since what React renders in the browser alone is what a visitor uses. Identical pages
 * are kept once: the file is named after its content.
 */
export function htmlPagesDir(outputDir: string): string {
  return join(outputDir, ".html-pages");
}

function keep(outputDir: string, html: string, source: string): void {
  const dir = htmlPagesDir(outputDir);
  const name = createHash("sha256").update(html).digest("hex").slice(0, 32);
  if (existsSync(join(dir, `${name}.html`))) return;
  mkdirSync(dir, { recursive: true });
  // The source first: the checker's report names the page, not only the file.
  writeFileSync(join(dir, `${name}.txt`), source);
  writeFileSync(join(dir, `${name}.html`), html);
}

/** The contexts already followed, with what waits for their bodies still being read. */
const followed = new WeakMap<BrowserContext, () => Promise<void>>();

/**
 * Keeps each document the site itself serves to a context's pages: every server of the
 * journeys listens on 127.0.0.1 (other hosts' documents are the journeys' own stand-ins).
 * Returns a function that waits for bodies still being read.
 */
export function keepServedDocuments(context: BrowserContext, outputDir: string): () => Promise<void> {
  const already = followed.get(context);
  if (already) return already;
  const reading = new Set<Promise<void>>();
  context.on("response", (response: Response) => {
    const request = response.request();
    if (request.resourceType() !== "document" || new URL(response.url()).hostname !== "127.0.0.1") return;
    if (!(response.headers()["content-type"] ?? "").startsWith("text/html")) return;
    if (response.status() >= 300 && response.status() < 400) return;
    const read = response
      .text()
      .then((html) => keep(outputDir, html, `served ${response.status()} ${response.url()}`))
      // A page closed or navigated away before its body was read: the next visit keeps it.
      .catch(() => {})
      .finally(() => reading.delete(read));
    reading.add(read);
  });
  const settled = async () => {
    await Promise.all(reading);
  };
  followed.set(context, settled);
  return settled;
}

/** Keeps the page as the browser holds it now. */
export async function keepRenderedPage(page: Page, outputDir: string): Promise<void> {
  const html = await page.evaluate(() => {
    const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : "";
    // A field's value in the browser is what the visitor typed (React mirrors it into the value
    // attribute), not markup of the site's: a journey typing "not a url" into an address field
    // is not invalid HTML. The served document keeps its own values, and they are checked.
    const root = document.documentElement.cloneNode(true) as HTMLElement;
    for (const field of root.querySelectorAll("input:not([type=hidden])")) field.removeAttribute("value");
    return `${doctype}\n${root.outerHTML}`;
  });
  keep(outputDir, html, `in the browser ${page.url()}`);
}
