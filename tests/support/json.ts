/** A JSON request init; `raw` sends the string as is. */
export function postJson(
  body: unknown,
  init: { raw?: boolean; type?: string; headers?: Record<string, string> } = {},
): RequestInit {
  return {
    method: "POST",
    body: init.raw ? (body as string) : JSON.stringify(body),
    headers: { "content-type": init.type ?? "application/json", ...init.headers },
  };
}
