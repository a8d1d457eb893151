declare module "*.html" {
  const text: string;
  export default text;
}

// Markdown in content/ is imported as text (with { type: "text" }) and rendered by src/server/lib/markdown.ts.
declare module "*.md" {
  const text: string;
  export default text;
}
