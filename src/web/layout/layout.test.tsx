import { afterEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { content } from "#server/db/content.ts";
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

function menu(): HTMLDetailsElement {
  return document.querySelector("details.site-menu")!;
}
function toggle(): HTMLElement {
  return menu().querySelector("summary")!;
}
/** Opens the disclosure as the browser does on a tap of its summary: the attribute, then a toggle event. */
function openMenu() {
  act(() => {
    menu().open = true;
    menu().dispatchEvent(new Event("toggle"));
  });
}

describe("header", () => {
  test("links Quiz, Learn and Blog and marks the active one, inline and in the phone menu", () => {
    renderAt("/learn/2", <Header />);
    const nav = screen.getByRole("navigation", { name: "Main" });
    for (const list of [nav.querySelector<HTMLElement>(".site-links")!, within(menu()).getByRole("list")]) {
      expect(within(list).getByRole("link", { name: "Learn" }).getAttribute("aria-current")).toBe("page");
      expect(within(list).getByRole("link", { name: "Quiz" }).getAttribute("aria-current")).toBeNull();
      expect(
        within(list)
          .getAllByRole("link")
          .map((a) => a.getAttribute("href")),
      ).toEqual(["/quiz", "/learn", "/blog"]);
    }
    expect(
      within(nav)
        .getByRole("link", { name: /Cam Guide/ })
        .getAttribute("href"),
    ).toBe("/");
  });

  test("the phone menu is a closed native disclosure named Menu, its links inside it", () => {
    renderAt("/", <Header />);
    expect(menu().open).toBe(false);
    expect(menu().hasAttribute("open")).toBe(false);
    expect(toggle().textContent).toContain("Menu");
    expect(
      within(menu())
        .getAllByRole("link")
        .map((a) => a.textContent),
    ).toEqual(["Quiz", "Learn", "Blog"]);
  });

  test("following a link in the open menu navigates and closes it", () => {
    const { location } = renderAt("/", <Header />);
    openMenu();
    expect(menu().open).toBe(true);
    fireEvent.click(within(menu()).getByRole("link", { name: "Blog" }));
    expect(location.history!.at(-1)).toBe("/blog");
    expect(menu().open).toBe(false);
  });

  test("a link to the page already shown closes the menu too", () => {
    renderAt("/quiz", <Header />);
    openMenu();
    fireEvent.click(within(menu()).getByRole("link", { name: "Quiz" }));
    expect(menu().open).toBe(false);
  });
});

describe("header menu on a phone", () => {
  test("Esc closes the open menu and puts focus back on its toggle", () => {
    renderAt("/", <Header />);
    openMenu();
    within(menu()).getByRole("link", { name: "Quiz" }).focus();
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(menu().open).toBe(false);
    expect(document.activeElement).toBe(toggle());
  });

  test("a tap outside the menu closes it; a tap inside it does not", () => {
    renderAt(
      "/",
      <>
        <Header />
        <main>
          <p>Page text</p>
        </main>
      </>,
    );
    openMenu();
    fireEvent.pointerDown(within(menu()).getByRole("link", { name: "Learn" }));
    expect(menu().open).toBe(true);
    fireEvent.pointerDown(screen.getByText("Page text"));
    expect(menu().open).toBe(false);
  });

  test("other keys leave the menu open; a closed menu ignores Esc", () => {
    renderAt("/", <Header />);
    const before = document.activeElement;
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(menu().open).toBe(false);
    expect(document.activeElement).toBe(before);
    openMenu();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(menu().open).toBe(true);
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
      "/go/platform-one?p=footer",
      "/go/platform-two?p=footer",
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

  test("the claim is the operator's: it names the banner platform, and an empty one leaves only the invitation", async () => {
    const { queryClient } = renderAt("/quiz/result", <PromoBanner />);
    const shows = async (changes: Record<string, unknown>, text: string) => {
      act(() => {
        queryClient.setQueryData(["/api/settings"], { ...content.siteSettings, ...changes });
      });
      // Query updates reach components on the next tick.
      await waitFor(() => expect(screen.getByRole("link").textContent).toBe(text));
    };
    await shows(
      { bannerPlatform: "b", bannerClaim: "{platform} pays out weekly; ask {platform} for details." },
      "Join Platform Two today and start earning! Platform Two pays out weekly; ask Platform Two for details.",
    );
    await shows({ bannerClaim: "" }, "Join Platform One today and start earning!");
    // A name is put in as it is: "$&" and "$'" are not replacement patterns.
    await shows(
      {
        platformA: { name: "Cam$$Club $&", url: "https://a.example" },
        bannerClaim: "Ask {platform} about {platform}.",
      },
      "Join Cam$$Club $& today and start earning! Ask Cam$$Club $& about Cam$$Club $&.",
    );
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
