import { afterEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderAt } from "#tests/support/render.tsx";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { PromoBanner } from "./promo-banner.tsx";
import { ThemeToggle } from "./theme-toggle.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.removeAttribute("data-theme");
});

describe("header", () => {
  test("links Quiz, Learn and Blog and marks the active one", () => {
    renderAt("/learn/2", <Header />);
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("link", { name: "Learn" }).getAttribute("aria-current")).toBe("page");
    expect(within(nav).getByRole("link", { name: "Quiz" }).getAttribute("aria-current")).toBeNull();
    expect(
      within(nav)
        .getByRole("link", { name: /Cam Guide/ })
        .getAttribute("href"),
    ).toBe("/");
  });

  test("the hamburger opens the menu and a link click closes it", () => {
    const { location } = renderAt("/", <Header />);
    const toggle = screen.getByRole("button", { name: "Open menu" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    expect(screen.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true");
    expect(document.getElementById("site-menu")!.className).toContain("open");
    fireEvent.click(screen.getByRole("link", { name: "Blog" }));
    expect(location.history!.at(-1)).toBe("/blog");
    expect(screen.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
    expect(document.getElementById("site-menu")!.className).not.toContain("open");
  });
});

describe("header menu on a phone", () => {
  test("Esc closes the open menu and puts focus back on its button", () => {
    renderAt("/", <Header />);
    fireEvent.click(screen.getByRole("button", { name: "Open menu" }));
    expect(document.getElementById("site-menu")!.className).toContain("open");
    screen.getByRole("link", { name: "Quiz" }).focus();
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    const toggle = screen.getByRole("button", { name: "Open menu" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(document.getElementById("site-menu")!.className).not.toContain("open");
    expect(document.activeElement).toBe(toggle);
  });

  test("a tap outside the header closes the menu; a tap inside it does not", () => {
    renderAt(
      "/",
      <>
        <Header />
        <main>
          <p>Page text</p>
        </main>
      </>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Open menu" }));
    fireEvent.pointerDown(document.getElementById("site-menu")!);
    expect(screen.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true");
    fireEvent.pointerDown(screen.getByText("Page text"));
    expect(screen.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
    expect(document.getElementById("site-menu")!.className).not.toContain("open");
  });

  test("other keys leave the menu open; a closed menu ignores Esc", () => {
    renderAt("/", <Header />);
    const toggle = screen.getByRole("button", { name: "Open menu" });
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(screen.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true");
  });

  test("the brand link carries the full name in its title and accessible name", () => {
    const long = "A very long brand name that goes on and on to sixty chars!!";
    const { queryClient } = renderAt("/", <Header />);
    act(() => {
      queryClient.setQueryData(["/api/settings"], (s: object) => ({ ...s, brandName: long }));
    });
    return waitFor(() => {
      const link = screen.getByRole("link", { name: new RegExp(long) });
      expect(link.getAttribute("title")).toBe(long);
    });
  });
});

describe("theme toggle", () => {
  test("flips light and dark and stores the choice under 'theme'", () => {
    document.documentElement.setAttribute("data-theme", "light");
    renderAt("/", <ThemeToggle />);
    const button = screen.getByRole("button", { name: "Switch to dark theme" });
    fireEvent.click(button);
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    expect(localStorage.getItem("theme")).toBe("dark");
    fireEvent.click(screen.getByRole("button", { name: "Switch to light theme" }));
    expect(document.documentElement.getAttribute("data-theme")).toBe("light");
    expect(localStorage.getItem("theme")).toBe("light");
  });
});

describe("footer", () => {
  test("quick links, platform links from settings, legal links", () => {
    renderAt("/", <Footer />);
    const quick = screen.getByRole("navigation", { name: "Quick Links" });
    const hrefs = within(quick)
      .getAllByRole("link")
      .map((a) => [a.textContent, a.getAttribute("href")]);
    expect(hrefs).toEqual([
      ["Take the Quiz", "/quiz"],
      ["Free Course", "/learn"],
      ["Blog", "/blog"],
      ["Platform Reviews", "/blog/platform-reviews"],
    ]);
    const platforms = within(screen.getByRole("navigation", { name: "Popular Platforms" })).getAllByRole("link");
    expect(platforms.map((a) => a.getAttribute("href"))).toEqual([
      "https://example.com/platform-one",
      "https://example.org/platform-two",
    ]);
    for (const a of platforms) {
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("sponsored noopener");
    }
    expect(screen.getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe("/terms");
    expect(screen.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe("/privacy");
    expect(screen.getByText(/2257/).textContent).toContain("18 years of age or older");
    expect(screen.getByText(String(new Date().getFullYear()))).toBeTruthy();
  });
});

describe("footer Free Course link", () => {
  test("goes to /learn and scrolls to the top 50 ms later", () => {
    jest.useFakeTimers();
    const calls: unknown[] = [];
    const original = window.scrollTo;
    window.scrollTo = ((options: unknown) => void calls.push(options)) as typeof window.scrollTo;
    try {
      const { location } = renderAt("/learn", <Footer />);
      fireEvent.click(screen.getByRole("link", { name: "Free Course" }));
      expect(location.history!.at(-1)).toBe("/learn");
      expect(calls).toHaveLength(0);
      jest.advanceTimersByTime(50);
      expect(calls).toEqual([{ top: 0, left: 0, behavior: "smooth" }]);
    } finally {
      window.scrollTo = original;
      jest.useRealTimers();
    }
  });
});

describe("promotional banner", () => {
  test("names the banner platform on result paths", () => {
    renderAt("/quiz/earnings", <PromoBanner />);
    const link = screen.getByRole("link");
    expect(link.textContent).toBe(
      "Join Platform One today and start earning! Over 100,000 webcam models trust Platform One for steady income.",
    );
    expect(link.getAttribute("rel")).toBe("sponsored noopener");
  });

  test("is absent elsewhere", () => {
    const { container } = renderAt("/learn", <PromoBanner />);
    expect(container.textContent).toBe("");
  });

  test("follows the banner platform setting", async () => {
    const { queryClient } = renderAt("/quiz/result", <PromoBanner />);
    act(() => {
      queryClient.setQueryData(["/api/settings"], (s: object) => ({ ...s, bannerPlatform: "b" }));
    });
    // Query updates reach components on the next tick.
    await waitFor(() => expect(screen.getByRole("link").textContent).toContain("Join Platform Two today"));
  });
});
