// `bun bench/upload-memory.ts`: the server's memory peak while the admin sends eight 95 MB
// videos at once. Builds dist/cam-guide (skip with BENCH_SKIP_BUILD=1), starts it on a fresh
// DATA_DIR, signs in as the admin, sends UPLOADS (8) uploads of UPLOAD_MB (95) in parallel as
// the admin page does (multipart/form-data, field "file") and reads VmRSS / VmHWM from
// /proc/<pid>/status before and after. The server's own process is measured, not this script.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, spawnServer } from "./lib.ts";

const root = join(import.meta.dir, "..");
const port = Number(process.env.BENCH_PORT ?? 4650);
const count = Number(process.env.UPLOADS ?? 8);
const sizeMb = Number(process.env.UPLOAD_MB ?? 95);
const base = `http://127.0.0.1:${port}`;
const password = "bench-password-123";

ensureBinary();

const work = mkdtempSync(join(tmpdir(), "cam-guide-upload-bench-"));
const dataDir = join(work, "data");
// A real MP4 header (the seed clip) padded to the size: the server recognises files by content.
const video = join(work, "big.mp4");
const clip = readFileSync(join(root, "public", "seed", "offers", "first-stream.mp4"));
const bytes = new Uint8Array(sizeMb * 1024 * 1024);
bytes.set(clip);
writeFileSync(video, bytes);

const server = spawnServer(port, dataDir, { ADMIN_PASSWORD: password });

function memory(): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

try {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error("the server did not start within 15 s");
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await Bun.sleep(20);
  }
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ username: "admin", password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const boundary = "----cam-guide-bench";
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  // The body is streamed from disk with its Content-Length, as a browser sends a form: this
  // script holds none of the file in memory. (Bun sends a Blob that wraps a file as empty.)
  const send = async (file: Blob) => {
    const reader = file.stream().getReader();
    let stage: "head" | "file" | "tail" = "head";
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (stage === "head") {
          stage = "file";
          controller.enqueue(head);
        } else if (stage === "file") {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          stage = "tail";
          controller.enqueue(tail);
        } else controller.close();
      },
    });
    const res = await fetch(`${base}/api/upload`, {
      method: "POST",
      headers: {
        cookie,
        origin: base,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + file.size + tail.length),
      },
      body,
    });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  // Warm up the route once, so the idle figure includes what any first upload loads.
  await send(new Blob([clip]));
  await Bun.sleep(200);
  const idle = memory();
  // Resets VmHWM to the current RSS (Linux 4.0+), so the peak measured is the uploads' own.
  let reset = false;
  try {
    writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
    reset = true;
  } catch {
    // not allowed here: the peak then also holds the start's own peak
  }

  const started = performance.now();
  await Promise.all(Array.from({ length: count }, () => send(Bun.file(video))));
  const seconds = (performance.now() - started) / 1000;
  const after = memory();
  const line = (label: string, mb: number) => console.log(`${label.padEnd(44)} ${mb.toFixed(0).padStart(6)} MB`);
  console.log(`${count} parallel uploads of ${sizeMb} MB to the compiled executable (${seconds.toFixed(1)} s)`);
  line("resident memory before (VmRSS, idle)", idle.rss);
  line("peak before the uploads (VmHWM)", idle.hwm);
  if (!reset) console.log("(VmHWM could not be reset: the peak below may be the start's own)");
  line("peak during the uploads (VmHWM)", after.hwm);
  line("peak above idle", after.hwm - idle.rss);
  line("peak above idle, per upload", (after.hwm - idle.rss) / count);
} finally {
  server.kill("SIGKILL");
  await server.exited;
  rmSync(work, { recursive: true, force: true });
}
