import { xmlText } from "#server/lib/xml.ts";
import { HttpError } from "./errors.ts";
import { JSON_BODY_LIMIT, readBodyLimited } from "./json-body.ts";

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** A form's fields, or why it could not be read. */
export type FormRead = { fields: URLSearchParams } | { problem: HttpError };

/**
 * The fields of a form a page posts without JavaScript (urlencoded, at most 16 KB), or
 * the refusal to answer with. Never throws: a form's mistakes are shown as a page.
 */
export async function formFields({ request }: { request: Request }): Promise<FormRead> {
  if (!FORM_TYPE.test(request.headers.get("content-type") ?? ""))
    return { problem: new HttpError(415, "This address takes a form sent by the page.") };
  try {
    const tooLarge = `The form is larger than ${JSON_BODY_LIMIT / 1024} KB.`;
    const bytes = await readBodyLimited(request, JSON_BODY_LIMIT, tooLarge);
    return { fields: new URLSearchParams(new TextDecoder().decode(bytes)) };
  } catch (error) {
    if (error instanceof HttpError) return { problem: error };
    throw error;
  }
}

/**
 * A small page telling a visitor without JavaScript why a form was refused (4xx), with a
 * link back to where they can start again. Nothing typed is echoed.
 */
export function formProblemPage(status: number, message: string, back: { href: string; label: string }): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Your answers could not be used</title></head>
<body>
<main>
<h1>Your answers could not be used</h1>
<p>${xmlText(message)}</p>
<p><a href="${xmlText(back.href)}">${xmlText(back.label)}</a></p>
</main>
</body>
</html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
