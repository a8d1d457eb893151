// The one rule for characters a reader cannot see, used by every field that refuses them (a
// link's destination, the site's claims and disclosure wording). One pasted, the saved text
// differs from what the admin reads: two addresses that look the same lead to different
// places, a right-to-left override reverses the words after it, a filler makes a label blank.

/**
 * Controls, format characters (zero-width spaces and joiners, direction marks and overrides,
 * the soft hyphen, the byte order mark, tags), broken halves of a character, every
 * Default_Ignorable_Code_Point (variation selectors, Hangul and Khmer fillers, the combining
 * grapheme joiner, the Mongolian selectors, code points kept for more of them), the
 * noncharacters, line and paragraph separators (a line break no one sees), and characters
 * drawn blank that Unicode does not class as ignorable: the blank Braille pattern, the Khitan
 * filler, the object replacement character, the musical null notehead.
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\u2028\u2029\u2800\uFFFC\u{16FE4}\u{1D159}]/u;

/**
 * A subdivision flag spelt with tags, a keycap, or an emoji with its presentation selector or
 * skin tone, joined to others with zero-width joiners (a family, a profession): the only places
 * prose may carry such characters, as each changes how a visible emoji is drawn.
 */
const EMOJI_SEQUENCE =
  /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|[0-9#*]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0E|\uFE0F)?(?:\u200D\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0E|\uFE0F)?)*/gu;

/** A code point as people look it up: "U+FE0F", "U+E0100". */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The first character of `text` a reader cannot see, named ("U+200B"), or null. In `prose`
 * (text written for visitors), emoji sequences keep their selectors and joiners; an address
 * has none.
 */
export function firstInvisible(text: string, { prose = false }: { prose?: boolean } = {}): string | null {
  const found = INVISIBLE.exec(prose ? text.replace(EMOJI_SEQUENCE, "x") : text)?.[0];
  return found === undefined ? null : codePointName(found);
}
