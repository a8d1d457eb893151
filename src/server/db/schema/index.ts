export * from "./blog.ts";
export * from "./commerce.ts";
export * from "./results.ts";
export * from "./site.ts";
