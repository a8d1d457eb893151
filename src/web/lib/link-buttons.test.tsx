import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { followLinkButtonsOnSpace } from "./link-buttons.ts";

let stop = () => {};
afterEach(() => {
  stop();
  cleanup();
});

test("Space follows a link drawn as a button, as Enter does; a plain link is left to the browser", () => {
  stop = followLinkButtonsOnSpace();
  const followed: string[] = [];
  const follow = (name: string) => (event: { preventDefault(): void }) => {
    event.preventDefault();
    followed.push(name);
  };
  render(
    <>
      <a href="/quiz" role="button" onClick={follow("button link")}>
        Start the quiz
      </a>
      <a href="/blog" onClick={follow("plain link")}>
        Blog
      </a>
    </>,
  );
  const asButton = screen.getByRole("button", { name: "Start the quiz" });
  const pressed = fireEvent.keyDown(asButton, { key: " " });
  expect(followed).toEqual(["button link"]);
  // The page does not scroll as well.
  expect(pressed).toBe(false);
  fireEvent.keyDown(screen.getByRole("link", { name: "Blog" }), { key: " " });
  fireEvent.keyDown(asButton, { key: "a" });
  expect(followed).toEqual(["button link"]);
});
