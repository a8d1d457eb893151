// Whether the running Bun still closes a connection that pipelines a request behind one whose
// handler awaits (docs/security.md#http11-pipelining). Run it after every upgrade of Bun:
//   bun scripts/pipelining-check.ts
// Prints what came back and exits 0 either way: it informs, it does not gate anything.
import { connect } from "node:net";

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    await Bun.sleep(5);
    return new Response(`answered ${new URL(request.url).pathname}\n`);
  },
});

const received = await new Promise<string>((resolve) => {
  let data = "";
  const socket = connect(server.port ?? 0, "127.0.0.1", () => {
    socket.write("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
  });
  socket.on("data", (chunk) => {
    data += chunk;
    if (data.includes("answered /b")) socket.end();
  });
  socket.on("close", () => resolve(data));
  socket.on("error", () => resolve(data));
  setTimeout(() => socket.destroy(), 3000);
});
server.stop(true);

const answers = ["/a", "/b"].filter((path) => received.includes(`answered ${path}`));
console.log(`Bun ${Bun.version}: ${answers.length} of 2 pipelined requests answered (${received.length} bytes).`);
console.log(
  answers.length === 2
    ? "Pipelining behind an awaiting handler works: the note in docs/security.md can go."
    : "The runtime still closes such connections: keep the advice to run behind a reverse proxy.",
);
