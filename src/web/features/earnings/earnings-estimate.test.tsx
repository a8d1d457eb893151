import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { renderServerHtml } from "#tests/support/render.tsx";
import { EarningsEstimate, ESTIMATE_DISCLAIMER } from "./earnings-estimate.tsx";

const middle = Array.from({ length: 15 }, () => 2);
let location = memoryLocation({ path: "/quiz/earnings", record: true });

function show(search: string) {
  location = memoryLocation({ path: "/quiz/earnings", searchPath: search, record: true });
  return render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <EarningsEstimate tier="Hustler Mode" answers={middle} id="abc" />
    </Router>,
  );
}

const band = () => screen.getByTestId("estimate-band").textContent;
const slider = (name: RegExp) => screen.getByRole("slider", { name }) as HTMLInputElement;

afterEach(cleanup);

describe("the earnings estimate", () => {
  test("defaults from the answers: the band, every assumption and the fixed sentence under the figures", () => {
    show("tier=Hustler+Mode&id=abc");
    // 18 h × 60 × 20% × 4.33 × 50% × $1 / $2 / $4
    expect(band()).toBe("Low $470Typical $940High $1,870a month");
    expect(screen.getByTestId("estimate-band").nextElementSibling?.textContent).toBe(ESTIMATE_DISCLAIMER);
    const assumptions = screen.getByRole("list").textContent ?? "";
    for (const text of [
      "18 hours a week",
      "4 days a week",
      "20%",
      "$1 (low)",
      "$2 (typical)",
      "$4 (high)",
      "4.5 hours a show",
      "50%",
      "4.33 weeks",
    ])
      expect(assumptions).toContain(text);
    expect(screen.getByText("How we got this number").tagName).toBe("SUMMARY");
  });

  test("the address's what-if values are read, clamped", () => {
    show("tier=Hustler+Mode&id=abc&hours=10&days=9&share=40");
    expect(slider(/Hours live per week/).value).toBe("10");
    expect(slider(/Days live per week/).value).toBe("7");
    expect(slider(/paid shows/).value).toBe("40");
    // 10 × 60 × 40% × 4.33 × 50% = 519.6 a dollar
    expect(band()).toBe("Low $520Typical $1,040High $2,080a month");
  });

  test("a schedule of very long shows says it is hard to keep up; one day is one day", () => {
    show("tier=Hustler+Mode&id=abc&hours=60&days=1");
    const assumptions = screen.getByRole("list").textContent ?? "";
    expect(assumptions).toContain("Only 12 of them are counted: at most 12 hours on each day live.");
    expect(assumptions).toContain("1 day a week, about 12 hours a show. Shows that long are hard to keep up");
    expect(slider(/Days live per week/).getAttribute("aria-valuetext")).toBe("1 day");
    expect(screen.getByText("1 day", { selector: "output" })).toBeTruthy();
    cleanup();
    show("tier=Hustler+Mode&id=abc&hours=12&days=4");
    expect(screen.getByRole("list").textContent).not.toContain("hard to keep up");
  });

  test("a control recalculates the band at once and replaces the address", () => {
    show("tier=Hustler+Mode&id=abc");
    fireEvent.change(slider(/Hours live per week/), { target: { value: "30" } });
    expect(slider(/Hours live per week/).value).toBe("30");
    expect(band()).toBe("Low $780Typical $1,560High $3,120a month");
    // The same figures beside the sliders.
    expect(screen.getByTestId("what-if-result").textContent).toBe("Typical $1,560 a month (low $780, high $3,120)");
    expect(location.history.at(-1)).toBe("/quiz/earnings?tier=Hustler+Mode&id=abc&hours=30&days=4&share=20");
    // Replaced, not pushed: Back leaves the result instead of stepping through every value.
    expect(location.history).toHaveLength(1);
    fireEvent.change(slider(/paid shows/), { target: { value: "0" } });
    expect(band()).toBe("Low $0Typical $0High $0a month");
  });

  test("without scripts the controls are a GET form with the result's tier and id and an Update button", () => {
    const html = renderServerHtml(
      "/quiz/earnings",
      <EarningsEstimate tier="Hustler Mode" answers={middle} id="abc" />,
      { search: "tier=Hustler+Mode&id=abc&hours=12" },
    );
    expect(html).toContain('<form class="estimate-what-if" action="/quiz/earnings" method="get">');
    expect(html).toContain('name="tier" value="Hustler Mode"');
    expect(html).toContain('name="id" value="abc"');
    expect(html).toMatch(/name="hours"[^>]*value="12"/);
    expect(html).toContain(">Update</button>");
  });
});
