import { afterEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, screen, within } from "@testing-library/react";
import type { CourseModule, ModuleSummary } from "#shared/features/course/contract.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt, renderServerHtml } from "#tests/support/render.tsx";
import { useProgressStore } from "#web/features/progress/store.ts";
import { RETURNING_ATTRIBUTE, THEME_SCRIPT } from "#web/theme-script.ts";
import { ContinueCourse } from "./continue-course.tsx";
import { Curriculum } from "./curriculum.tsx";
import { READ_THROUGH_MS } from "./read-through.ts";
import { TopicViewer } from "./topic-viewer.tsx";

afterEach(() => {
  cleanup();
  localStorage.clear();
  // What the head script adds when a test runs it.
  document.documentElement.removeAttribute(RETURNING_ATTRIBUTE);
  for (const icon of document.head.querySelectorAll('link[rel="icon"]')) icon.remove();
});

const modules: ModuleSummary[] = [1, 2].map((id) => ({
  id,
  title: `Module title ${id}`,
  description: "A module for the tests.",
  isActive: true,
  topics: [1, 2, 3, 4, 5].map((t) => ({ id: id * 10 + t, title: `Lesson ${id}.${t}` })),
  checklist: [],
}));

function remember(progress: object) {
  localStorage.setItem("progress", JSON.stringify(progress));
}

describe("curriculum", () => {
  test("every module and lesson; the lesson shown is the current page; a tick on each lesson read", () => {
    remember({ read: { 2: [1, 2] } });
    renderAt("/learn/2?topic=3", <Curriculum modules={modules} module={2} lesson={3} />);
    const nav = screen.getByRole("navigation", { name: "Course contents" });
    expect(within(nav).getAllByRole("link")).toHaveLength(10);
    expect(within(nav).getByRole("link", { name: "Lesson 2.3" }).getAttribute("aria-current")).toBe("page");
    expect(within(nav).getByRole("link", { name: "Lesson 2.3" }).getAttribute("href")).toBe("/learn/2?topic=3");
    expect(within(nav).getByRole("link", { name: "Lesson 2.1 (read)" }).getAttribute("href")).toBe("/learn/2");
    expect(within(nav).getByRole("link", { name: "Lesson 2.2 (read)" }).getAttribute("aria-current")).toBeNull();
    expect(within(nav).queryByRole("link", { name: /Lesson 1\.\d \(read\)/ })).toBeNull();
    expect(within(nav).getByText("· 2 of 5 read")).toBeTruthy();
    // The module shown is open, the others closed.
    const open = [...nav.querySelectorAll("details")].map((d) => d.open);
    expect(open).toEqual([false, true]);
  });

  test("in the module's quiz no lesson is the current page", () => {
    renderAt("/learn/1?quiz=true", <Curriculum modules={modules} module={1} lesson={null} />);
    expect(document.querySelector("[aria-current]")).toBeNull();
  });

  test("the server's HTML has every lesson but nothing this visitor read", () => {
    remember({ read: { 1: [1, 2, 3] } });
    const html = renderServerHtml("/learn/1", <Curriculum modules={modules} module={1} lesson={1} />);
    expect(html).toContain("Lesson 2.5");
    expect(html).not.toContain("(read)");
    expect(html).not.toContain("of 5 read");
  });
});

/** An IntersectionObserver the test drives: `reach()` puts the observed lesson end on screen. */
function fakeObserver() {
  const callbacks: IntersectionObserverCallback[] = [];
  const original = globalThis.IntersectionObserver;
  globalThis.IntersectionObserver = class {
    constructor(callback: IntersectionObserverCallback) {
      callbacks.push(callback);
    }
    observe() {}
    disconnect() {}
  } as unknown as typeof IntersectionObserver;
  return {
    reach: () =>
      act(() => {
        for (const callback of callbacks)
          callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
      }),
    restore: () => {
      globalThis.IntersectionObserver = original;
    },
  };
}

const lessonModule: CourseModule = {
  id: 3,
  title: "Test module",
  description: "A module used by the component tests, long enough for the schema.",
  isActive: true,
  topics: [1, 2].map((id) => ({ id, title: `Topic ${id}`, content: `<p>Text ${id}.</p>` })),
};

const stored = () => JSON.parse(localStorage.getItem("progress") ?? "{}");

describe("a lesson counts as read when reached and scrolled through", () => {
  test("opening it remembers it as the last; read only once its end was on screen and the time has passed", () => {
    const observer = fakeObserver();
    jest.useFakeTimers();
    try {
      renderAt("/learn/3?topic=2", <TopicViewer module={lessonModule} />);
      expect(stored().last).toEqual({ module: 3, lesson: 2 });
      expect(stored().read).toEqual({});
      observer.reach();
      act(() => jest.advanceTimersByTime(READ_THROUGH_MS - 1));
      expect(useProgressStore.getState().progress.read).toEqual({});
      act(() => jest.advanceTimersByTime(1));
      expect(stored().read).toEqual({ 3: [2] });
    } finally {
      jest.useRealTimers();
      observer.restore();
    }
  });

  test("open long enough but its end never on screen: not read", () => {
    const observer = fakeObserver();
    jest.useFakeTimers();
    try {
      renderAt("/learn/3", <TopicViewer module={lessonModule} />);
      act(() => jest.advanceTimersByTime(READ_THROUGH_MS * 4));
      expect(stored().read).toEqual({});
      // Scrolled to the end later: read at once.
      observer.reach();
      expect(stored().read).toEqual({ 3: [1] });
    } finally {
      jest.useRealTimers();
      observer.restore();
    }
  });
});

describe("the end of a module's lessons says only what is true", () => {
  test("lessons not read through are named with their links; all read, every topic is completed", () => {
    const observer = fakeObserver();
    try {
      remember({ read: {} });
      renderAt("/learn/3?topic=2", <TopicViewer module={lessonModule} />);
      const end = screen.getByRole("region", { name: "The end of this module's lessons" });
      expect(within(end).getByText("One lesson is not read through yet on this device:")).toBeTruthy();
      expect(within(end).getByRole("link", { name: "Topic 1" }).getAttribute("href")).toBe("/learn/3");
      expect(within(end).getByRole("button", { name: "Continue" }).getAttribute("href")).toBe(
        "/learn/module-complete?moduleId=3",
      );
      cleanup();
      remember({ read: { 3: [1] } });
      renderAt("/learn/3?topic=2", <TopicViewer module={lessonModule} />);
      expect(screen.getByRole("region", { name: "All Topics Completed" })).toBeTruthy();
    } finally {
      observer.restore();
    }
  });
});

/** The browser's fetch of the module titles, answered with the test's modules. */
function routeModules() {
  routeFetchTo(async (path) =>
    path === "/api/course/modules" ? Response.json(modules) : new Response("", { status: 404 }),
  );
}

describe("continue where you left off", () => {
  test("nothing for a visitor who has not started the course", () => {
    remember({ quiz: { id: "abc", archetype: null } });
    renderAt("/learn", <ContinueCourse />);
    expect(screen.queryByRole("button", { name: /Continue where you left off/ })).toBeNull();
  });

  test("the exact lesson, named by module, number and title", async () => {
    remember({ read: { 2: [1, 2] }, last: { module: 2, lesson: 3 } });
    routeModules();
    renderAt("/", <ContinueCourse />);
    const link = await screen.findByRole("button", {
      name: "Continue where you left off Module 2, lesson 3: Lesson 2.3",
    });
    expect(link.getAttribute("href")).toBe("/learn/2?topic=3");
    // Beside it, the plan this progress feeds and the way to carry it to another device.
    expect(screen.getByRole("link", { name: "Your plan" }).getAttribute("href")).toBe("/plan");
    expect(screen.getByRole("link", { name: "Continue on another device" }).getAttribute("href")).toBe("/resume");
  });

  test("the lesson opened last was read through: the next one not read", async () => {
    remember({ read: { 1: [1, 2] }, last: { module: 1, lesson: 2 } });
    routeModules();
    renderAt("/learn", <ContinueCourse />);
    const link = await screen.findByRole("button", {
      name: "Continue where you left off Module 1, lesson 3: Lesson 1.3",
    });
    expect(link.getAttribute("href")).toBe("/learn/1?topic=3");
  });

  test("the head script marks a returning visitor before the page renders; the page keeps the mark true", () => {
    const root = document.documentElement;
    const headScript = () => {
      root.removeAttribute(RETURNING_ATTRIBUTE);
      new Function(THEME_SCRIPT)();
      // It also watches for the title in discreet mode until the page has loaded.
      document.dispatchEvent(new Event("DOMContentLoaded"));
      return root.getAttribute(RETURNING_ATTRIBUTE);
    };
    expect(headScript()).toBeNull();
    remember({ quiz: { id: "abc", archetype: null } });
    expect(headScript()).toBeNull();
    remember({ read: { 1: [1] }, last: { module: 1, lesson: 2 } });
    expect(headScript()).toBe("course");
    remember({ completed: [1] });
    expect(headScript()).toBe("completed");
    localStorage.setItem("progress", "not json");
    expect(headScript()).toBeNull();

    // Progress gone since (cleared in another tab): the slot's reserved space goes with the mark.
    remember({ read: { 1: [1] } });
    expect(headScript()).toBe("course");
    localStorage.clear();
    renderAt("/learn", <ContinueCourse />);
    expect(root.hasAttribute(RETURNING_ATTRIBUTE)).toBe(false);
  });
});
