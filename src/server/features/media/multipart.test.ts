import { describe, expect, test } from "bun:test";
import { HttpError } from "#server/plugins/errors.ts";
import { refusal } from "#tests/support/refusal.ts";
import { multipartBoundary, type PartStart, readMultipartFile } from "./multipart.ts";

const encoder = new TextEncoder();
const BOUNDARY = "----formdata-boundary-1234";

function body(parts: { name: string; filename?: string; bytes: Uint8Array | string }[], boundary = BOUNDARY) {
  const out: Uint8Array[] = [encoder.encode("preamble to ignore\r\n")];
  for (const part of parts) {
    const file = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    out.push(encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`));
    out.push(typeof part.bytes === "string" ? encoder.encode(part.bytes) : part.bytes);
    out.push(encoder.encode("\r\n"));
  }
  out.push(encoder.encode(`--${boundary}--\r\nepilogue`));
  return new Uint8Array(Buffer.concat(out));
}

async function* pieces(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function* at(bytes: Uint8Array, cuts: number[]) {
  let last = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(last, cut);
    last = cut;
  }
}

async function read(chunks: AsyncIterable<Uint8Array>, boundary = BOUNDARY) {
  const received: Uint8Array[] = [];
  const started: PartStart[] = [];
  const found = await readMultipartFile(chunks, boundary, "file", {
    start: (part) => void started.push(part),
    write: async (bytes) => void received.push(new Uint8Array(bytes)),
  });
  return { found, bytes: new Uint8Array(Buffer.concat(received)), started, writes: received.length };
}

const refused = (work: Promise<unknown>) => refusal(work, "expected a refusal");

// Bytes that look like parts of a boundary without being one.
const tricky = new Uint8Array(
  Buffer.concat([
    encoder.encode(`\r\n--${BOUNDARY.slice(0, -1)}X\r\n--\r\n-`),
    Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) % 256),
    encoder.encode("\r\n\r\n--"),
  ]),
);

describe("multipart boundary", () => {
  test.each([
    ["multipart/form-data; boundary=abc", "abc"],
    ['multipart/form-data; boundary="a b:c"', "a b:c"],
    ["Multipart/Form-Data;charset=utf-8; BOUNDARY=xyz", "xyz"],
    ["multipart/form-data", null],
    ["multipart/mixed; boundary=abc", null],
    ["text/plain; boundary=abc", null],
    [`multipart/form-data; boundary=${"x".repeat(71)}`, null],
  ])("%s -> %p", (type, expected) => expect(multipartBoundary(type)).toBe(expected));
});

describe("reading one file field as it arrives", () => {
  const file = tricky;
  const whole = body([
    { name: "note", bytes: "a plain field first" },
    { name: "file", filename: "clip.mp4", bytes: file },
    { name: "file", filename: "second.png", bytes: "only the first file field counts" },
  ]);

  test.each([1, 2, 3, 7, 64, 1000, whole.length])("in pieces of %i bytes: exactly the file's bytes", async (size) => {
    const result = await read(pieces(whole, size));
    expect(result.found).toBe(true);
    expect(result.bytes).toEqual(file);
    expect(result.started).toEqual([{ name: "file", filename: "clip.mp4" }]);
  });

  test("cut at every position around the file's closing boundary", async () => {
    const end = whole.indexOf(0x2d, whole.length - 200);
    for (let cut = end - 60; cut < whole.length; cut++) {
      const result = await read(at(whole, [cut]));
      expect(result.bytes).toEqual(file);
    }
  });

  test("a large file passes through in many writes, none holding it whole", async () => {
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    const result = await read(pieces(body([{ name: "file", filename: "big.mp4", bytes: big }]), 64 * 1024));
    expect(result.bytes).toEqual(big);
    expect(result.writes).toBeGreaterThan(40);
  });

  test("padding after a boundary, other part headers and an escaped file name are read", async () => {
    const raw = encoder.encode(
      '--b \t\r\nContent-Disposition: form-data; name="file"; filename="a\\"b.png"\r\nContent-Type: image/png\r\n\r\nDATA\r\n--b--',
    );
    const result = await read(pieces(raw, 5), "b");
    expect(new TextDecoder().decode(result.bytes)).toBe("DATA");
    expect(result.started[0]!.filename).toBe('a"b.png');
  });

  test("no field named file: read to the end, found is false", async () => {
    const result = await read(pieces(body([{ name: "other", filename: "a.png", bytes: "x" }]), 3));
    expect(result).toMatchObject({ found: false, writes: 0 });
  });

  test("a plain field named file starts with no file name", async () => {
    const result = await read(pieces(body([{ name: "file", bytes: "text" }]), 4));
    expect(result.started).toEqual([{ name: "file", filename: null }]);
  });
});

describe("refused bodies", () => {
  const complete = body([{ name: "file", filename: "a.png", bytes: tricky }]);
  test.each([
    ["ends inside the file (an interrupted upload)", complete.subarray(0, 2000), "ended before"],
    ["ends after the file but before the closing boundary", complete.subarray(0, complete.length - 12), "ended"],
    ["ends just after a boundary", encoder.encode(`--${BOUNDARY}`), "ended"],
    ["never has a boundary", encoder.encode("just some text"), "multipart"],
    ["an empty body", new Uint8Array(), "multipart"],
    [
      "part headers without Content-Disposition",
      encoder.encode(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--`),
      "multipart",
    ],
    ["has a part with no headers at all", encoder.encode(`--${BOUNDARY}\r\n\r\nx\r\n--${BOUNDARY}--`), "multipart"],
    ["garbage after a boundary", encoder.encode(`--${BOUNDARY}XYZ\r\n\r\n`), "multipart"],
    [
      "part headers that never end",
      encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"${"a".repeat(20_000)}`),
      "multipart",
    ],
  ])("a body that %s is a 400", async (_, raw, message) => {
    const error = await refused(read(pieces(raw, 100)));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  test("a refusal from start() stops the reading before any byte is written", async () => {
    let written = 0;
    const error = await refused(
      readMultipartFile(pieces(complete, 50), BOUNDARY, "file", {
        start: () => {
          throw new HttpError(422, "no");
        },
        write: async () => void written++,
      }),
    );
    expect(error.status).toBe(422);
    expect(written).toBe(0);
  });
});
