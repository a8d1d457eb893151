// Random Unicode for property tests of what the admin may type: code points from many scripts
// and planes, combining marks, emoji, right-to-left text, spaces, escapes and invisible characters.

/** A small seeded generator, so a failure can be replayed (the seed is in the test's name). */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Code points of many kinds: ASCII, Latin, CJK, right-to-left, combining marks, emoji, the astral planes, spaces, escapes. */
export function unicodeText(next: () => number, length: number): string {
  const pools: [number, number][] = [
    [0x21, 0x7e],
    [0xa0, 0x17f],
    [0x300, 0x36f],
    [0x590, 0x6ff],
    [0x4e00, 0x9fff],
    [0x1f300, 0x1faff],
    [0x10000, 0x10ffff],
    [0x2000, 0x206f],
    [0xfe00, 0xfeff],
  ];
  const specials = [" ", "%", "%2", "%41", "\\", "/", "?", "#", "&", "=", "\u200D", "\uFE0F", "\u202E", "\u00AD", "\t"];
  let text = "";
  for (let i = 0; i < length; i++) {
    if (next() < 0.04) {
      text += specials[Math.floor(next() * specials.length)];
      continue;
    }
    const [low, high] = pools[Math.floor(next() * pools.length)]!;
    const code = low + Math.floor(next() * (high - low + 1));
    // A lone surrogate cannot be sent in a JSON body as UTF-8; keep to scalar values.
    text += String.fromCodePoint(code >= 0xd800 && code <= 0xdfff ? 0x41 : code);
  }
  return text;
}

/** A destination of random Unicode: in the host's label (sometimes), the path, the query and the fragment. */
export function randomDestination(next: () => number): string {
  const label = next() < 0.3 ? unicodeText(next, 1 + Math.floor(next() * 6)).replace(/[./?#\\%@:[\]\s]/g, "") : "";
  const host = `${label || "shop"}.example.com`;
  return `https://${host}/${unicodeText(next, Math.floor(next() * 20))}?${unicodeText(next, Math.floor(next() * 10))}#${unicodeText(next, Math.floor(next() * 6))}`;
}
