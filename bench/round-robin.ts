// `bun bench/round-robin.ts`: a small round-robin reverse proxy, as a load balancer in front of
// several instances would be (bench/instances.ts starts it in a process of its own, since wrk
// blocks the script that runs it). PROXY_PORT, and BACKENDS: base addresses, comma-separated.
const backends = (process.env.BACKENDS ?? "").split(",").filter(Boolean);
let next = 0;
const server = Bun.serve({
  port: Number(process.env.PROXY_PORT ?? 0),
  hostname: "127.0.0.1",
  async fetch(request) {
    const url = new URL(request.url);
    const backend = backends[next++ % backends.length]!;
    const headers = new Headers(request.headers);
    headers.set("x-forwarded-for", "127.0.0.1");
    const answer = await fetch(`${backend}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: request.method === "GET" ? undefined : await request.arrayBuffer(),
      redirect: "manual",
      decompress: false,
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  },
});
console.log(`round-robin on ${server.port} to ${backends.join(", ")}`);
