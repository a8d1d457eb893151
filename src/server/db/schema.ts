// Every table, for drizzle's query builder and drizzle-kit. Each feature declares its own
// table(s) in src/server/features/<feature>/table.ts.
export * from "#server/features/analytics/table.ts";
export * from "#server/features/auth/table.ts";
export * from "#server/features/backups/table.ts";
export * from "#server/features/blog/table.ts";
export * from "#server/features/earnings/table.ts";
export * from "#server/features/editor/table.ts";
export * from "#server/features/home/table.ts";
export * from "#server/features/limits/table.ts";
export * from "#server/features/links/table.ts";
export * from "#server/features/media/table.ts";
export * from "#server/features/offers/table.ts";
export * from "#server/features/products/table.ts";
export * from "#server/features/quiz/table.ts";
export * from "#server/features/settings/table.ts";
export * from "#server/features/site-pages/table.ts";
