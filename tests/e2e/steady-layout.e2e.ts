import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures.ts";

/** A visitor who read module 1 and finished its quiz, then opened a lesson of module 2. */
const RETURNING_PROGRESS = {
  quiz: null,
  earnings: null,
  read: { 1: [1, 2, 3, 4, 5], 2: [1, 2] },
  completed: [1],
  quizzes: { 1: { correct: 3, total: 5, answers: ["A", "B", "C", "D", "A"] } },
  last: { module: 2, lesson: 3 },
};

const PAGES = [
  "/",
  "/learn",
  "/resume",
  "/plan",
  "/learn/2",
  "/quiz",
  "/blog",
  "/learn-more",
  "/resources",
  "/privacy",
];

/** The most a page may shift as it loads and hydrates (Cumulative Layout Shift). */
const MAX_CLS = 0.02;

/** Sums the layout shifts not caused by the visitor since the document started, with what moved. */
async function layoutShift(page: Page): Promise<{ cls: number; moved: string[] }> {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
          })[];
          const counted = entries.filter((e) => !e.hadRecentInput);
          resolve({
            cls: counted.reduce((sum, e) => sum + e.value, 0),
            moved: counted.flatMap((e) =>
              e.sources.map(
                (s) =>
                  `${s.node?.nodeName ?? "?"}.${(s.node as Element | null)?.className ?? ""} ` +
                  `y ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)}, ` +
                  `h ${Math.round(s.previousRect.height)}→${Math.round(s.currentRect.height)} ` +
                  `at ${Math.round(e.startTime)} ms`,
              ),
            ),
          });
        }).observe({ type: "layout-shift", buffered: true });
        // The buffered entries arrive in the observer's first call; a page that never shifted has none.
        setTimeout(() => resolve({ cls: 0, moved: [] }), 500);
      }),
  );
}

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
]) {
  test.describe(`a returning visitor on ${viewport.width} × ${viewport.height}`, () => {
    test.use({ viewport });

    test(`no page shifts as it loads (CLS ≤ ${MAX_CLS})`, async ({ page, problems }) => {
      void problems;
      test.setTimeout(90_000);
      await page.addInitScript((progress) => {
        localStorage.setItem("progress", progress);
      }, JSON.stringify(RETURNING_PROGRESS));
      const shifts: { path: string; cls: number; moved: string[] }[] = [];
      for (const path of PAGES) {
        await page.goto(path);
        await waitForHydration(page);
        // What arrives late for this visitor is there before the shifts are summed.
        if (path === "/" || path === "/learn")
          await expect(page.getByRole("button", { name: /Continue where you left off/ })).toBeVisible();
        if (path === "/learn") await expect(page.getByText("You have completed 1 of 10 modules.")).toBeVisible();
        if (path === "/resume") await expect(page.getByRole("textbox", { name: "Code", exact: true })).toBeVisible();
        await page.evaluate(() => new Promise(requestAnimationFrame));
        shifts.push({ path, ...(await layoutShift(page)) });
      }
      const all = shifts.map((s) => `${s.path} ${s.cls.toFixed(3)}`).join(", ");
      expect(
        shifts.filter((s) => s.cls > MAX_CLS),
        `CLS per page: ${all}`,
      ).toEqual([]);
      console.log(`CLS at ${viewport.width} × ${viewport.height}: ${all}`);
    });
  });
}

/** WCAG's contrast ratio of two CSS colours "rgb(r, g, b)". */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, bl] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

test("the quiz's option outlines stand out from the page at 3:1 or more in both themes", async ({ page, visit }) => {
  await visit("/quiz");
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
    );
    const colours = await page
      .locator(".wizard-option")
      .first()
      .evaluate((option) => {
        // The first opaque background behind the option: the page's, or a card's.
        let background = "rgba(0, 0, 0, 0)";
        for (let el: Element | null = option.parentElement; el; el = el.parentElement) {
          const colour = getComputedStyle(el).backgroundColor;
          if (!/rgba\(.*, 0\)$|transparent/.test(colour)) {
            background = colour;
            break;
          }
        }
        return { border: getComputedStyle(option).borderTopColor, background };
      });
    const ratio = contrast(colours.border, colours.background);
    expect(ratio, `${theme} theme: border ${colours.border} on ${colours.background}`).toBeGreaterThanOrEqual(3);
    console.log(`option outline, ${theme} theme: ${ratio.toFixed(2)}:1`);
  }
});

test("without JavaScript, in the system's dark theme, links are the dark theme's colour", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/blog?page=9");
  const colours = await page.getByRole("link", { name: "Go to the first page" }).evaluate((link) => ({
    link: getComputedStyle(link).color,
    page: getComputedStyle(document.body).backgroundColor,
  }));
  const ratio = contrast(colours.link, colours.page);
  expect(ratio, `link ${colours.link} on ${colours.page}`).toBeGreaterThanOrEqual(4.5);
  await context.close();
});

test("links and buttons take the site's own colours in each theme, chosen or followed from the system", async ({
  browser,
}) => {
  // The light theme's pink and the dark theme's, never pico's blue: with scripts (a theme set on
  // the page) and without (the system's theme followed).
  const expected = { light: "rgb(194, 24, 91)", dark: "rgb(244, 143, 177)" } as const;
  for (const javaScriptEnabled of [true, false])
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ javaScriptEnabled, colorScheme });
      const page = await context.newPage();
      await page.goto("/blog?page=9");
      if (javaScriptEnabled) await expect(page.locator("html")).toHaveAttribute("data-theme", colorScheme);
      const link = await page
        .getByRole("link", { name: "Go to the first page" })
        .evaluate((element) => getComputedStyle(element).color);
      const exit = await page
        .getByRole("link", { name: /Quick exit/ })
        .first()
        .evaluate((element) => getComputedStyle(element).backgroundColor);
      expect([javaScriptEnabled, colorScheme, link]).toEqual([javaScriptEnabled, colorScheme, expected[colorScheme]]);
      expect([javaScriptEnabled, colorScheme, exit]).toEqual([javaScriptEnabled, colorScheme, "rgb(194, 24, 91)"]);
      await context.close();
    }
});

test.describe("on a 375 × 812 phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the figures a What if? slider changes stay in view while it moves", async ({ page, visit }) => {
    // A saved estimate, as the calculator's last step saves one without scripts.
    const saved = await page.request.post("/quiz/earnings", {
      form: { answers: "333333333333333" },
      maxRedirects: 0,
    });
    expect(saved.status()).toBe(303);
    await visit(saved.headers().location!);
    const result = page.getByTestId("what-if-result");
    for (const name of [/Hours live per week/, /Days live per week/, /paid shows/]) {
      const slider = page.getByRole("slider", { name });
      await slider.focus();
      await slider.scrollIntoViewIfNeeded();
      const before = await result.textContent();
      await page.keyboard.press(name.source.startsWith("Days") ? "ArrowLeft" : "ArrowRight");
      if (!name.source.startsWith("Days")) await expect(result).not.toHaveText(before!);
      await expect(slider).toBeFocused();
      // Wholly on the screen and not under the sticky site header.
      await expect
        .poll(() =>
          result.evaluate((el) => {
            const box = el.getBoundingClientRect();
            const header = document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
            return box.top >= header - 1 && box.bottom <= window.innerHeight + 1;
          }),
        )
        .toBe(true);
    }
    await expect(page.getByTestId("estimate-band")).toContainText((await result.locator("strong").textContent())!);
  });
});
