type Send = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * A browser's cookie jar in front of the real app, for the browser code's fetch calls
 * (routeFetchTo): every request carries this site's origin and the cookies set so far, and
 * every answer's Set-Cookie is kept (an empty value ends a cookie), as a browser would.
 */
export function cookieJar(request: Send) {
  const jar = new Map<string, string>();
  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("origin", "http://localhost");
    if (jar.size) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const res = await request(path, { ...init, headers });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value && !/max-age=0/i.test(cookie)) jar.set(name, value);
      else jar.delete(name);
    }
    return res;
  }
  return { send, jar };
}
