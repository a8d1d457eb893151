import { formProblemPage } from "#server/lib/form-problem-page.ts";
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
 * The answers of a wizard's last step sent as a form (the `answers` field), or the page
 * that tells the visitor why they cannot be used (4xx), with the way back.
 */
export function formAnswers<T>(
  body: unknown,
  parse: (value: string) => T | null,
  problem: string,
  back: { href: string; label: string },
): { answers: T; fields: URLSearchParams } | Response {
  const form = body as FormRead;
  if ("problem" in form) return formProblemPage(form.problem.status, form.problem.message, back);
  const answers = parse(form.fields.get("answers") ?? "");
  if (!answers) return formProblemPage(422, problem, back);
  return { answers, fields: form.fields };
}
