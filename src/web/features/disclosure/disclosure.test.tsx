import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, screen, within } from "@testing-library/react";
import { DEFAULT_DISCLOSURE_WORDING, disclosureWording } from "#shared/features/disclosure/constants.ts";
import { renderAt } from "#tests/support/render.tsx";
import { PlatformButtons } from "#web/features/settings/platform-buttons.tsx";
import { Footer } from "#web/layout/footer.tsx";
import { PromoBanner } from "#web/layout/promo-banner.tsx";
import { AffiliateDisclosure, DisclosureSpotContext, disclosureSpot } from "./disclosure.tsx";

afterEach(cleanup);

/** The text of the element a link names in aria-describedby. */
function description(link: HTMLElement): string {
  const id = link.getAttribute("aria-describedby");
  expect(id).toBeTruthy();
  return document.getElementById(id as string)?.textContent ?? "";
}

/** Renders at a path with the note's spot the layout would give it. */
function renderWithSpot(path: string, ui: React.ReactNode) {
  return renderAt(path, <DisclosureSpotContext value={disclosureSpot(path)}>{ui}</DisclosureSpotContext>);
}

describe("affiliate labels", () => {
  test("each platform button reads its visible Affiliate link label, and the note links to the terms", () => {
    renderWithSpot("/learn", <PlatformButtons placement="learn" />);
    const links = screen.getAllByRole("button", { name: /^Join Platform/ });
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(description(link)).toBe("Affiliate link");
      // Visible next to the link: in the same item, not hidden.
      const label = document.getElementById(link.getAttribute("aria-describedby") as string) as HTMLElement;
      expect(label.parentElement).toBe(link.parentElement);
      expect(label.className).not.toContain("visually-hidden");
    }
    const note = screen.getByText(/We earn a commission/);
    expect(within(note).getByRole("link", { name: "Read our affiliate disclosure" }).getAttribute("href")).toBe(
      "/terms#affiliate-disclosure",
    );
  });

  test("the platform buttons leave the note to the banner's spot on a page with the banner", () => {
    renderWithSpot("/quiz/result", <PlatformButtons placement="quiz-result" />);
    expect(screen.getAllByText("Affiliate link")).toHaveLength(2);
    expect(screen.queryByText(/We earn a commission/)).toBeNull();
  });

  test("the banner carries a Sponsored label its link reads", () => {
    renderWithSpot("/quiz/result", <PromoBanner />);
    const banner = screen.getByRole("complementary", { name: "Sponsored" });
    const link = within(banner).getByRole("link");
    expect(description(link)).toBe("Sponsored");
    expect(within(banner).getByText("Sponsored").className).toBe("affiliate-label");
  });

  test("the footer labels both platform links and holds the note on a page with no other affiliate link", () => {
    renderWithSpot("/blog", <Footer />);
    const nav = screen.getByRole("navigation", { name: "Popular Platforms" });
    for (const link of within(nav).getAllByRole("link")) expect(description(link)).toBe("Affiliate link");
    expect(screen.getAllByText(/We earn a commission/)).toHaveLength(1);
  });

  test("the footer leaves the note to the page where the page shows it first", () => {
    for (const path of ["/learn", "/quiz/starter-kit"]) {
      renderWithSpot(path, <Footer />);
      expect(screen.getAllByText("Affiliate link")).toHaveLength(2);
      expect(screen.queryByText(/We earn a commission/)).toBeNull();
      cleanup();
    }
  });

  test("an offer card's note shows where the footer's would, never beside the banner's", () => {
    renderWithSpot("/learn/1", <AffiliateDisclosure at="offer" />);
    expect(screen.getByText(/We earn a commission/)).toBeTruthy();
    cleanup();
    renderWithSpot("/quiz/result", <AffiliateDisclosure at="offer" />);
    expect(screen.queryByText(/We earn a commission/)).toBeNull();
  });
});

describe("disclosure wording", () => {
  test("an operator's wording replaces the default; a blank label keeps the default", () => {
    expect(disclosureWording(null)).toEqual({
      ...DEFAULT_DISCLOSURE_WORDING,
      note: "We earn a commission if you sign up or buy through links marked Affiliate link or Sponsored, at no cost to you. Our advice is not for sale.",
    });
    const custom = disclosureWording({ sponsored: "Ad", affiliate: "  ", note: "We get paid." });
    expect(custom).toEqual({ ...DEFAULT_DISCLOSURE_WORDING, sponsored: "Ad", note: "We get paid." });
  });

  test("the note names the labels as they are worded, in the default note and the operator's own", () => {
    expect(disclosureWording({ sponsored: "Paid partner" }).note).toBe(
      "We earn a commission if you sign up or buy through links marked Affiliate link or Paid partner, at no cost to you. Our advice is not for sale.",
    );
    const own = disclosureWording({ affiliate: "Partner link", offerNote: "{affiliate}: we earn a commission." });
    expect(own.offerNote).toBe("Partner link: we earn a commission.");
  });
});
