// Test images made in code (no binaries in the repository): a gradient drawn as a BMP, then
// encoded by Bun.Image into the format the test needs.

function bmp(width: number, height: number): Uint8Array {
  const row = width * 3;
  const pad = (4 - (row % 4)) % 4;
  const size = 54 + (row + pad) * height;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set([0x42, 0x4d]);
  view.setUint32(2, size, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  view.setUint32(34, size - 54, true);
  let at = 54;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      bytes[at++] = (x * 255) / width;
      bytes[at++] = (y * 255) / height;
      bytes[at++] = 128;
    }
    at += pad;
  }
  return bytes;
}

/** A real image `width` × `height` pixels, JPEG by default. */
export async function testImage(
  width: number,
  height: number,
  format: "jpeg" | "png" | "webp" = "jpeg",
): Promise<Uint8Array<ArrayBuffer>> {
  const image = new Bun.Image(bmp(width, height));
  const bytes = await (format === "png"
    ? image.png()
    : format === "webp"
      ? image.webp()
      : image.jpeg({ quality: 70 })
  ).bytes();
  return new Uint8Array(bytes);
}

/** The multipart body of an upload of `bytes` in the field "file". */
export function uploadForm(bytes: Uint8Array, name: string, type = "image/jpeg"): FormData {
  const data = new FormData();
  data.append("file", new File([new Uint8Array(bytes)], name, { type }));
  return data;
}
