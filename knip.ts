import type { KnipConfig } from "knip";

// Entry points knip cannot find by itself. package.json scripts already name
// src/server/main.ts and scripts/*; the Playwright plugin reads playwright.config.ts.
// Page modules are reached through the dynamic import()s in src/web/routes.ts.
export default {
  entry: [
    "src/web/entry.client.tsx",
    "src/web/styles/app.css",
    "scripts/*.ts",
    "bench/*.ts",
    "tests/setup/*.ts",
    "**/*.test.{ts,tsx}",
    "drizzle-pg.config.ts",
  ],
  project: ["src/**/*.{ts,tsx,css}", "scripts/**/*.ts", "bench/**/*.ts", "tests/**/*.{ts,tsx}", "*.ts"],
  // Its font files are read by path when the build draws the social cards (scripts/share-images.ts).
  ignoreDependencies: ["@expo-google-fonts/inter"],
  compilers: {
    // Only to see the packages a stylesheet @imports (pico.css).
    css: (text: string) =>
      [...text.matchAll(/@import\s+["']([^"']+)["']/g)].map(([, path]) => `import "${path}";`).join("\n"),
  },
} satisfies KnipConfig;
