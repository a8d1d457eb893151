/** Slug from a title: lower-case, non-word characters stripped, whitespace turned into hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\w\s-]/g, "")
    .replace(/_/g, " ")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** New products get 'custom_' plus 8 characters made on the client. */
export function newProductId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `custom_${Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("")}`;
}
