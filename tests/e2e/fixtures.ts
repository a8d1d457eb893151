import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type BrowserContext, test as base, expect, type Locator, type Page } from "@playwright/test";
import type Axe from "axe-core";
import { keepRenderedPage, keepServedDocuments } from "./html-pages.ts";
import { loopbackLinkPort } from "./loopback-link-port.ts";
import { ADMIN_PASSWORD, startOwnSite } from "./own-site.ts";

interface VisitOptions {
  /** The HTTP status the document is expected to answer with. */
  status?: number;
}

/** The server a journey talks to. */
interface Site {
  url: string;
  /** Its DATA_DIR, for journeys that look at its database or uploads. */
  dataDir: string;
  /** The one loopback port its link checker may reach (tests/e2e/loopback-link-port.ts). */
  loopbackLinkPort: number;
}

export interface Options {
  /** A server of the journey's own (own-site.ts) instead of the one the visitor journeys share. */
  ownSite: boolean;
}

interface Fixtures {
  site: Site;
  /** Console errors and failed requests seen so far; the test fails if any remain at its end. */
  problems: string[];
  /** Goes to a path, checks its status, waits for hydration and runs an axe scan. */
  visit: (path: string, options?: VisitOptions) => Promise<void>;
  /** Runs an axe scan of the page as it is now: zero violations allowed. */
  scan: () => Promise<void>;
  /** Declares a problem the test provokes on purpose (a failing request it routes). */
  allowProblem: (pattern: RegExp) => void;
  /** Prints what the browser saw (alerts, toasts, failed requests) when the journey fails. */
  failureReport: undefined;
}

/** The rules a theme can change the outcome of: the other theme is scanned for these. */
const THEME_RULES = ["color-contrast", "link-in-text-block"];
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** axe-core's browser build, read once per worker and put into a page only when it lacks it. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

declare global {
  interface Window {
    axe: typeof Axe;
  }
}

/**
 * Puts axe-core into the page's document unless it is there already: a journey that moves
 * between pages without loading a new document (the site's own links) keeps it, and a scan
 * costs no second copy. axe runs in the page itself: the site's only frames are video embeds
 * of other sites, which the journeys cannot load (no network), and whose own element is still
 * checked (frame-title).
 */
async function withAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => "axe" in window)) return;
  await page.evaluate(AXE_SOURCE);
  await page.evaluate(() => window.axe.configure({ allowedOrigins: ["<same_origin>"] }));
}

/** An axe run of the page as it is now, of the given rules, within `include` when given. */
export async function axeRun(page: Page, rules: string[], include?: string): Promise<Axe.AxeResults> {
  await withAxe(page);
  return page.evaluate(
    ({ rules, include }) =>
      window.axe.run(include ? { include: [include] } : document, {
        runOnly: { type: "rule", values: rules },
      }),
    { rules, include },
  );
}

const summary = (violations: Axe.Result[]) =>
  violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`,
  );

/** Colour changes animate: contrast is measured once no transition is running. */
export async function settleTransitions(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
  );
}

/**
 * An axe scan of the page as it is now, in the theme it shows, then of what a theme
 * changes (contrast) in the other one (the `data-theme` attribute the theme toggle sets),
 * so every journey checks both. The page is left in the theme it had. Both runs, the theme
 * switches and the waits for colours to settle happen in one call into the page (the wait is
 * settleTransitions' own condition): a call for each step took the journeys 5.0 minutes
 * instead of 4.4.
 */
export async function axeScan(page: Page): Promise<void> {
  const state = await scanState(page);
  if (passedBefore(state)) return;
  await keepRenderedPage(page, test.info().project.outputDir);
  await withAxe(page);
  const { shown, other, inShown, inOther } = await page.evaluate(
    async ({ tags, themeRules }) => {
      const { axe } = window;
      const root = document.documentElement;
      const settled = () =>
        new Promise<void>((resolve) => {
          const check = () =>
            document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running")
              ? resolve()
              : requestAnimationFrame(check);
          // A frame first: transitions a theme change starts exist from the next style update.
          requestAnimationFrame(check);
        });
      const shown = root.getAttribute("data-theme") ?? "light";
      const other = shown === "dark" ? "light" : "dark";
      // A theme the journey has just switched may still be fading in.
      await settled();
      const inShown = (await axe.run(document, { runOnly: { type: "tag", values: tags } })).violations;
      root.setAttribute("data-theme", other);
      try {
        await settled();
        const inOther = (await axe.run(document, { runOnly: { type: "rule", values: themeRules } })).violations;
        return { shown, other, inShown, inOther };
      } finally {
        root.setAttribute("data-theme", shown);
        await settled();
      }
    },
    { tags: TAGS, themeRules: THEME_RULES },
  );
  expect(summary(inShown), `axe violations on ${page.url()} in the ${shown} theme`).toEqual([]);
  expect(summary(inOther), `axe violations on ${page.url()} in the ${other} theme`).toEqual([]);
  passed(state);
}

/**
 * The scans that passed in this run, by everything their outcome depends on. Journeys come
 * back to the same page in the same state often (the home page, a quiz's first step): an
 * identical page is not scanned twice. Identical means the same document, form values,
 * screen, scroll, colour preferences, focus and pointer; the styles are the build's own.
 * Workers share what passed through empty files in the run's output folder, which
 * Playwright empties at the start of every run.
 */
function passedMark(state: string): string {
  return join(test.info().project.outputDir, ".axe-passed", state);
}

function passedBefore(state: string): boolean {
  return existsSync(passedMark(state));
}

function passed(state: string): void {
  const mark = passedMark(state);
  mkdirSync(dirname(mark), { recursive: true });
  writeFileSync(mark, "");
}

async function scanState(page: Page): Promise<string> {
  const state = await page.evaluate(() => {
    const name = (el: Element | null | undefined) =>
      el ? `${el.tagName}#${el.id}.${el.getAttribute("class")}:${(el.textContent ?? "").slice(0, 80)}` : "";
    const controls = [...document.querySelectorAll<HTMLInputElement>("input, select, textarea")].map(
      (c) => `${c.value}|${c.checked}`,
    );
    return JSON.stringify([
      location.href,
      document.documentElement.outerHTML,
      controls,
      [innerWidth, innerHeight, scrollX, scrollY, devicePixelRatio],
      matchMedia("(prefers-color-scheme: dark)").matches,
      matchMedia("(prefers-reduced-motion: reduce)").matches,
      name(document.activeElement),
      name([...document.querySelectorAll(":hover")].at(-1)),
    ]);
  });
  return createHash("sha256").update(state).digest("hex");
}

/**
 * What a phone shows first: the element is wholly on the screen as it is now (no scroll
 * asked of the visitor) and not under the sticky site header. Polled, since a step may
 * scroll smoothly into place.
 */
export async function expectOnFirstScreen(locator: Locator, what: string): Promise<void> {
  await expect
    .poll(
      () =>
        locator.first().evaluate((element) => {
          const box = element.getBoundingClientRect();
          const header = document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
          if (box.height === 0) return "not shown";
          if (box.top < Math.max(header, 0) - 1) return `top ${Math.round(box.top)} under the header (${header})`;
          if (box.bottom > window.innerHeight + 1)
            return `bottom ${Math.round(box.bottom)} below the screen (${window.innerHeight})`;
          return "on the first screen";
        }),
      { message: `${what} on the first screen` },
    )
    .toBe("on the first screen");
}

/**
 * Waits until the page shows `text`, checked at every frame. For a wizard's next question, which
 * comes half a second after a tap: expect()'s polling (after 0, 20, 50, 100 and 100 ms, then every
 * 500) sees it up to half a second late, fifteen times a quiz.
 */
export async function waitForShown(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    // biome-ignore lint/performance/useDomNodeTextContent: what the page shows, without hidden text
    (wanted) => document.body.innerText.includes(wanted),
    text,
    { timeout: 15_000 },
  );
}

export { ADMIN_PASSWORD };

/** Signs in as the admin through the sign-in page and waits for the dashboard. */
export async function signIn(page: Page): Promise<void> {
  await page.goto("/admin-login");
  // Signing in is the script's work: it takes the page over before the form is filled and sent.
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
}

/**
 * Holds back the answers to requests for `url` (a glob) until `release()`: `requested`
 * resolves once the page has asked for one, so a test can look at the page while it waits.
 */
export async function holdBack(page: Page, url: string): Promise<{ requested: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  await page.route(url, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return { requested, release };
}

export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

const allowedByTest = new Map<string, RegExp[]>();

/**
 * What each journey's browser contexts went through, printed when the journey fails: a CI log
 * shows only text, and "the address did not change" says nothing of why (a refused save, a
 * failed request, a toast). Kept per test, by its id.
 */
const journals = new Map<string, { contexts: BrowserContext[]; events: string[] }>();

function journalOf(testId: string) {
  let journal = journals.get(testId);
  if (!journal) {
    journal = { contexts: [], events: [] };
    journals.set(testId, journal);
  }
  return journal;
}

const followed = new WeakSet<BrowserContext>();

function follow(context: BrowserContext): void {
  if (followed.has(context)) return;
  followed.add(context);
  let testId: string;
  try {
    testId = test.info().testId;
  } catch {
    return; // Outside a test (a worker's setup): nothing to report to.
  }
  const journal = journalOf(testId);
  journal.contexts.push(context);
  const started = performance.now();
  const note = (line: string) => {
    if (journal.events.length < 200)
      journal.events.push(`+${((performance.now() - started) / 1000).toFixed(1)} s ${line}`);
  };
  context.on("requestfailed", (request) =>
    note(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`),
  );
  context.on("response", (response) => {
    if (response.status() >= 400) note(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  context.on("weberror", (error) => note(`page error: ${error.error().message}`));
}

/** On a failed journey: each open page's address and what its alerts and toasts say, then the journal. */
async function reportFailure(testId: string, title: string): Promise<void> {
  const journal = journals.get(testId);
  if (!journal) return;
  const lines = [`What the browser saw in "${title}":`];
  for (const context of journal.contexts)
    for (const page of context.pages()) {
      const said = await page
        .locator('[role="alert"], [role="status"], .toast')
        .allInnerTexts()
        .catch(() => []);
      lines.push(
        `  page ${page.url()}: ${
          said
            .map((t) => t.trim())
            .filter(Boolean)
            .join(" | ") || "(no alert or toast)"
        }`,
      );
    }
  lines.push(...journal.events.map((e) => `  ${e}`));
  console.log(lines.join("\n"));
}

/** The DATA_DIR of the shared server on `url` (scripts/e2e-server.ts names it after the port). */
function sharedDataDir(url: string): string {
  const prefix = `cam-guide-e2e-${new URL(url).port}-`;
  const [newest] = readdirSync(tmpdir())
    .filter((name) => name.startsWith(prefix))
    .map((name) => join(tmpdir(), name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!newest) throw new Error(`no DATA_DIR ${prefix}* in ${tmpdir()}`);
  return newest;
}

export const test = base.extend<Fixtures & Options>({
  ownSite: [false, { option: true }],
  site: async ({ ownSite }, use, testInfo) => {
    if (!ownSite) {
      const url = testInfo.project.use.baseURL!;
      await use({
        url,
        get dataDir() {
          return sharedDataDir(url);
        },
        loopbackLinkPort: loopbackLinkPort(Number(new URL(url).port)),
      });
      return;
    }
    const site = await startOwnSite();
    try {
      await use(site);
    } finally {
      await site.stop();
    }
  },
  baseURL: async ({ site }, use) => {
    await use(site.url);
  },
  context: async ({ context }, use, testInfo) => {
    const served = keepServedDocuments(context, testInfo.project.outputDir);
    follow(context);
    await use(context);
    await served();
  },
  failureReport: [
    // On the page's context: torn down before it, while the pages are still open.
    async ({ context }, use, testInfo) => {
      void context;
      await use(undefined);
      if (testInfo.status !== testInfo.expectedStatus) await reportFailure(testInfo.testId, testInfo.title);
      journals.delete(testInfo.testId);
    },
    { auto: true },
  ],
  // The contexts a journey opens itself (a second visitor, a fresh browser) are followed too.
  browser: [
    async ({ browser }, use, workerInfo) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        keepServedDocuments(context, workerInfo.project.outputDir);
        follow(context);
        return context;
      };
      await use(browser);
    },
    { scope: "worker" },
  ],
  allowProblem: async ({}, use) => {
    const allowed: RegExp[] = [];
    allowedByTest.set(test.info().testId, allowed);
    await use((pattern) => void allowed.push(pattern));
  },
  problems: async ({ page, allowProblem }, use) => {
    void allowProblem;
    const problems: string[] = [];
    const expectedStatuses = new Map<string, number>();
    (page as Page & { __expected?: Map<string, number> }).__expected = expectedStatuses;
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") {
        // A document's own expected 404 is reported by Chromium as a failed resource.
        const status = /status of (\d{3})/.exec(msg.text())?.[1];
        const url = msg.location()?.url;
        if (status && url && expectedStatuses.get(new URL(url).pathname) === Number(status)) return;
        problems.push(`console ${msg.type()}: ${msg.text()}`);
      }
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("requestfailed", (request) => {
      // Aborted by navigating away is not a failure of the site.
      if (request.failure()?.errorText === "net::ERR_ABORTED") return;
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
    });
    page.on("response", (response) => {
      const url = new URL(response.url());
      const expected = expectedStatuses.get(url.pathname);
      if (response.status() >= 400 && response.status() !== expected) {
        problems.push(`HTTP ${response.status()} for ${response.url()}`);
      }
    });
    await use(problems);
    const allowed = allowedByTest.get(test.info().testId) ?? [];
    const unexpected = problems.filter((p) => !allowed.some((pattern) => pattern.test(p)));
    expect(unexpected, "console errors or failed requests").toEqual([]);
  },
  visit: async ({ page, problems }, use) => {
    void problems;
    await use(async (path, options = {}) => {
      const expected = (page as Page & { __expected?: Map<string, number> }).__expected!;
      const status = options.status ?? 200;
      expected.set(new URL(path, "http://x").pathname, status);
      const response = await page.goto(path);
      expect(response?.status(), `status of ${path}`).toBe(status);
      await waitForHydration(page);
      await axeScan(page);
    });
  },
  scan: async ({ page }, use) => {
    await use(() => axeScan(page));
  },
});

export { expect };
