// The build draws one social card per archetype into the client bundle (dist/client/social,
// embedded in the executable): each must be a real 1200x630 PNG.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ARCHETYPES } from "#shared/features/quiz/constants.ts";
import { shareImagePath } from "#shared/features/quiz/share.ts";
import { SHARE_IMAGE_SIZE, wrap, writeShareImages } from "../scripts/share-images.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's header chunk; null when the bytes are not a PNG. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (!PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(12, 16)) !== "IHDR") return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function expectCards(dir: string) {
  const expected = ARCHETYPES.map((a) => basename(shareImagePath(a))).sort();
  expect(readdirSync(dir).sort()).toEqual(expected);
  for (const name of expected) {
    const bytes = new Uint8Array(readFileSync(join(dir, name)));
    expect([name, pngSize(bytes)]).toEqual([name, SHARE_IMAGE_SIZE]);
    // A card with text on it, not an empty canvas.
    expect(bytes.length).toBeGreaterThan(20_000);
  }
}

describe("social cards", () => {
  test("drawing them gives ten 1200x630 PNGs, one per archetype", () => {
    const dir = mkdtempSync(join(tmpdir(), "cards-"));
    try {
      expect(writeShareImages(dir)).toHaveLength(ARCHETYPES.length);
      expectCards(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  test("the built client bundle holds them", () => {
    const built = join(import.meta.dir, "..", "dist", "client", "social");
    expect(existsSync(built)).toBe(true);
    expectCards(built);
  });

  test("a tagline is broken at spaces into lines that fit", () => {
    expect(wrap("one two three four", 9)).toEqual(["one two", "three", "four"]);
    expect(wrap("short", 44)).toEqual(["short"]);
  });
});
