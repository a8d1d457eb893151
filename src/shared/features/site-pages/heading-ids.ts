// Section headings of an operator's text page get ids made from their words, so an address
// such as /terms#affiliate-disclosure lands on its section whatever else the page says.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** "Who may use this site" -> "who-may-use-this-site". */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The page's clean HTML with an id on each h2 and h3 that has none (the first of a repeated
 * heading keeps the plain slug, later ones get -2, -3...).
 */
export function withHeadingIds(html: string): string {
  const seen = new Map<string, number>();
  return html.replace(/<h([23])>([\s\S]*?)<\/h\1>/g, (whole, level: string, inner: string) => {
    const text = inner.replace(/<[^>]*>/g, "").replace(/&(#39|[a-z]+);/g, (m, e: string) => ENTITIES[e] ?? m);
    const slug = headingSlug(text);
    if (!slug) return whole;
    const count = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, count);
    return `<h${level} id="${count === 1 ? slug : `${slug}-${count}`}">${inner}</h${level}>`;
  });
}
