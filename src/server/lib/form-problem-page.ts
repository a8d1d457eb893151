import { xmlText } from "./xml.ts";

/**
 * A small page telling a visitor without JavaScript why a form was refused (4xx), with a
 * link back to where they can start again. Nothing typed is echoed.
 */
export function formProblemPage(
  status: number,
  message: string,
  back: { href: string; label: string },
  headers: Record<string, string> = {},
  /** A sentence more, such as how to get the answers back. */
  note?: string,
): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Your answers could not be used</title></head>
<body>
<main>
<h1>Your answers could not be used</h1>
<p>${xmlText(message)}</p>
${note ? `<p>${xmlText(note)}</p>\n` : ""}<p><a href="${xmlText(back.href)}">${xmlText(back.label)}</a></p>
</main>
</body>
</html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/**
 * Where a refused form's page leads: the start of the form it came from, known by its
 * path, never a path taken from the request (`//elsewhere` would lead off the site).
 */
export function formStart(pathname: string): { href: string; label: string } {
  const path = pathname.toLowerCase().replace(/\/+$/, "");
  if (path === "/quiz") return { href: "/quiz", label: "Start the quiz again" };
  if (path === "/quiz/earnings") return { href: "/quiz/earnings", label: "Start the calculator again" };
  return { href: "/", label: "Back to the home page" };
}
