// Links drawn as buttons (`<a role="button">`, pico's way to style a link as a button) are
// announced as buttons, so keyboard users press Space on them as on any button. A link
// answers only Enter: Space scrolls the page instead. This makes Space follow them too.

function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== " " || event.repeat || event.defaultPrevented) return;
  const target = event.target;
  if (!(target instanceof HTMLAnchorElement) || target.getAttribute("role") !== "button") return;
  event.preventDefault();
  target.click();
}

/** Listens on the whole document once; answers a function that stops listening. */
export function followLinkButtonsOnSpace(): () => void {
  document.addEventListener("keydown", onKeyDown);
  return () => document.removeEventListener("keydown", onKeyDown);
}
