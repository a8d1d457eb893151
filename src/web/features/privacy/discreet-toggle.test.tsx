import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { renderAt } from "#tests/support/render.tsx";
import { PromoBanner } from "#web/layout/promo-banner.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { THEME_SCRIPT } from "#web/theme-script.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { DISCREET_SAID, DiscreetToggle } from "./discreet-toggle.tsx";

afterEach(() => {
  // The head script watches the page for its title until the page has loaded: end that here,
  // or it renames every later file's page "Notes".
  document.dispatchEvent(new Event("DOMContentLoaded"));
  cleanup();
  for (const icon of document.head.querySelectorAll('link[rel="icon"]')) icon.remove();
  localStorage.clear();
  document.documentElement.removeAttribute("data-discreet");
});

function renderPage() {
  return renderAt(
    "/quiz/result",
    <>
      <PageMeta title="The Showstopper: Quiz Results" description="Your result." />
      <PromoBanner />
      <DiscreetToggle />
    </>,
  );
}

describe("discreet mode", () => {
  test("the switch gives a plain title and removes the sponsor banner, and turns back off", () => {
    renderPage();
    const toggle = screen.getByRole("button", { name: "Discreet mode" });
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    expect(document.title).toBe("The Showstopper: Quiz Results");
    expect(screen.getByRole("complementary", { name: "Sponsored" })).toBeTruthy();

    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(document.title).toBe("Notes");
    // Said on screen too: on a phone the tab's title is rarely in view.
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject(DISCREET_SAID.on);
    expect(screen.queryByRole("complementary", { name: "Sponsored" })).toBeNull();
    expect(localStorage.getItem("discreet")).toBe("on");

    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject(DISCREET_SAID.off);
    expect(document.title).toBe("The Showstopper: Quiz Results");
    expect(screen.getByRole("complementary", { name: "Sponsored" })).toBeTruthy();
    expect(localStorage.getItem("discreet")).toBeNull();
  });

  test("a page rendered afresh takes the stored choice through the head script", () => {
    renderPage();
    fireEvent.click(screen.getByRole("button", { name: "Discreet mode" }));
    cleanup();
    // A new page view: the mark on <html> is gone until the head script reads storage again.
    document.documentElement.removeAttribute("data-discreet");
    new Function(THEME_SCRIPT)();
    expect(document.documentElement.hasAttribute("data-discreet")).toBe(true);

    renderPage();
    expect(screen.getByRole("button", { name: "Discreet mode" }).getAttribute("aria-pressed")).toBe("true");
    expect(document.title).toBe("Notes");
    expect(screen.queryByRole("complementary", { name: "Sponsored" })).toBeNull();
  });
});
