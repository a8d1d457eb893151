import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, screen, within } from "@testing-library/react";
import { MODULE_IDS } from "#shared/features/course/constants.ts";
import { moduleSummaries } from "#tests/support/course-modules.ts";
import { renderAt, renderServerHtml } from "#tests/support/render.tsx";
import CompletePage from "./course-complete-page.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const modules = moduleSummaries();

function renderWithProgress(completed: number[]) {
  localStorage.setItem("completedModules", JSON.stringify(completed));
  const result = renderAt("/learn/complete", <CompletePage />);
  result.queryClient.setQueryData(["/api/course/modules"], modules);
  return result;
}

function linksIn(headingName: string) {
  const section = screen.getByRole("heading", { name: headingName }).closest("section")!;
  return within(section as HTMLElement)
    .getAllByRole("link")
    .map((a) => [a.textContent, a.getAttribute("href")]);
}

describe("/learn/complete", () => {
  test("the server render claims nothing: the module list, no congratulations", () => {
    // Even when this browser holds every module, the server cannot know it.
    localStorage.setItem("completedModules", JSON.stringify(MODULE_IDS));
    const html = renderServerHtml("/learn/complete", <CompletePage />, { data: [[["/api/course/modules"], modules]] });
    expect(html).toContain("Your course progress");
    expect(html).not.toContain("Congratulations");
    expect(html).not.toContain("graduation gifts");
    for (const id of MODULE_IDS) expect(html).toContain(`href="/learn/${id}"`);
  });

  test("no module done: no congratulations, every module left with its link, start at module 1", async () => {
    renderWithProgress([]);
    expect(await screen.findByText(/You have not completed a module yet/)).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Congratulations" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Completed" })).toBeNull();
    // Module titles come from the course read; the links are what this page decides.
    expect(await screen.findByRole("link", { name: /^Module 1: / })).toBeTruthy();
    expect(linksIn("Still to do").map(([, href]) => href)).toEqual(MODULE_IDS.map((id) => `/learn/${id}`));
    expect(screen.getByRole("button", { name: "Start Module 1" }).getAttribute("href")).toBe("/learn/1");
  });

  test("some done: what is done, what is left with links, continue with the first left", async () => {
    renderWithProgress([1, 2, 4]);
    expect(
      await screen.findByText("You have completed 3 of 10 modules. Finish the rest to reach your graduation."),
    ).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Congratulations" })).toBeNull();
    await screen.findByRole("link", { name: /^Module 1: / });
    expect(linksIn("Completed").map(([, href]) => href)).toEqual(["/learn/1", "/learn/2", "/learn/4"]);
    expect(linksIn("Still to do").map(([, href]) => href)).toEqual([3, 5, 6, 7, 8, 9, 10].map((id) => `/learn/${id}`));
    expect(screen.getByRole("button", { name: "Continue with Module 3" }).getAttribute("href")).toBe("/learn/3");
  });

  test("all ten done: the graduation", async () => {
    renderWithProgress([...MODULE_IDS].reverse());
    expect(await screen.findByRole("heading", { level: 1, name: "Congratulations" })).toBeTruthy();
    expect(screen.getByText("You have completed all ten modules of the free cam model course.")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Your graduation gifts" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Still to do" })).toBeNull();
  });

  /** The gift cards' titles and their buttons' addresses. */
  const gifts = () =>
    within(screen.getByRole("heading", { name: "Your graduation gifts" }).closest("section") as HTMLElement)
      .getAllByRole("heading", { level: 3 })
      .map((h) => [h.textContent, h.closest("article")?.querySelector("a")?.getAttribute("href")]);

  test("as shipped, only the gift that exists: the resource library, no discount and no community", async () => {
    renderWithProgress([...MODULE_IDS]);
    await screen.findByRole("heading", { name: "Your graduation gifts" });
    expect(gifts()).toEqual([["Resource Library", "/resources"]]);
    expect(screen.queryByText(/% off/)).toBeNull();
  });

  test("the discount and the community the owner set: the code, where it works, the community's address", async () => {
    localStorage.setItem("completedModules", JSON.stringify(MODULE_IDS));
    const { queryClient } = renderAt("/learn/complete", <CompletePage />);
    queryClient.setQueryData(["/api/course/modules"], modules);
    queryClient.setQueryData(["/api/settings"], (settings: object) => ({
      ...settings,
      giftDiscountCode: "GRAD15",
      giftDiscountPartner: "Example Lights",
      giftDiscountPercent: 15,
      communityUrl: "https://community.example.com/",
    }));
    const discount = (await screen.findByRole("heading", { name: "Starter Kit Discount" })).closest("article")!;
    expect(discount.textContent).toContain("15% off at Example Lights with the code GRAD15.");
    expect(gifts()).toEqual([
      ["Starter Kit Discount", "/quiz"],
      ["Resource Library", "/resources"],
      ["Community Access", "https://community.example.com/"],
    ]);
    const join = screen.getByRole("button", { name: /Join the Community/ });
    expect([join.getAttribute("target"), join.getAttribute("rel")]).toEqual(["_blank", "noopener noreferrer"]);
  });
});
