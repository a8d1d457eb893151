// The direction of imports between the code zones (docs/architecture.md#zones): web and
// server both build on shared; the server reaches into web only where it renders pages, web
// takes only the app's route type from the server (erased when built), and a feature's contract
// in shared derives its schemas from the feature's table, a declaration the admin forms carry.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const sources = (zone: string) =>
  [...new Bun.Glob(`src/${zone}/**/*.{ts,tsx}`).scanSync(root)].filter((f) => !/\.test\.tsx?$/.test(f)).sort();
const importsOf = (file: string, alias: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/from "(#\w+\/[^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((path) => path.startsWith(alias));
/**
 * A file's `import type … from` statements: erased when built, so no code of theirs ships.
 * (`import { type X }` is not one: it stays, as an import of the module, under verbatimModuleSyntax.)
 */
const typeImportsOf = (file: string, alias: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/^import type [^;]*? from "(#\w+\/[^"]+)";/gms)]
    .map((m) => m[1]!)
    .filter((path) => path.startsWith(alias));

/** The server files that render pages, and what of web each takes. */
const RENDERING: Record<string, string> = {
  // The renderer: the app, the document, the route table and the page modules, the query client it fills.
  "src/server/ssr/render.tsx": "renders every page",
  // The blog preview renders its notice above the post.
  "src/server/features/blog/preview-routes.ts": "renders the preview notice",
  // Counting asks the route table what a path is, so it counts the pages there are.
  "src/server/features/analytics/counting.ts": "reads the route table",
  // A request's page, matched once for the renderer and the counting.
  "src/server/ssr/request-page.ts": "reads the route table",
  // The theme script is inlined into every page's head, before first paint.
  "src/server/app.ts": "inlines the theme script",
  // An added page may not take the first part of a page's address: read from the route table.
  "src/server/features/site-pages/reserved.ts": "reads the route table",
};

/** The web files that take a type from the server (with `import type`), and which module. */
const SERVER_TYPES: Record<string, string> = {
  // The admin pages' client (Eden Treaty) is typed by the app's routes: `App`.
  "src/web/admin/admin-client.ts": "#server/app.ts",
};

/**
 * A table file is declarations only: its columns through the one column helper, the tables it
 * refers to, and plain values from shared. So a contract that derives its schemas from it brings
 * drizzle's table builders into the admin forms' bundle, and no query, connection or server code.
 */
const TABLE_IMPORTS = /^(#server\/db\/columns\.ts|#server\/features\/[\w-]+\/table\.ts|#shared\/.+|drizzle-orm)$/;
const allImportsOf = (file: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/^import [^;]*? from "([^"]+)";/gms)].map((m) => m[1]!);

/** The runtime imports of a file (not `import type`, not a lazy `import()`), resolved to files or package names. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/^(?:import|export) (?!type )(?:[^;]*? from )?"([^"]+)";/gms)].map((m) => {
    const path = m[1]!;
    if (path.startsWith("#"))
      return path.replace(/^#(\w+)\//, (_, zone) => (zone === "content" ? "content/" : `src/${zone}/`));
    if (path.startsWith(".")) return join(file, "..", path);
    return path;
  });
}

/** Every file and package a module reaches through runtime imports. */
function reach(start: string, seen = new Set<string>()): Set<string> {
  if (seen.has(start)) return seen;
  seen.add(start);
  if (/\.(ts|tsx)$/.test(start)) for (const next of runtimeImports(start)) reach(next, seen);
  return seen;
}

describe("imports between the zones", () => {
  test("shared imports neither web nor server: only a feature's contract takes its own table", () => {
    const leaks = sources("shared").flatMap((file) =>
      [...importsOf(file, "#web/"), ...importsOf(file, "#server/")]
        .filter((path) => {
          const feature = /^src\/shared\/features\/([\w-]+)\/contract\.ts$/.exec(file)?.[1];
          return path !== `#server/features/${feature}/table.ts`;
        })
        .map((path) => `${file} -> ${path}`),
    );
    expect(leaks).toEqual([]);
  });

  test("a table is declarations only", () => {
    const tables = sources("server").filter((file) => /^src\/server\/features\/[\w-]+\/table\.ts$/.test(file));
    expect(tables).toContain("src/server/features/blog/table.ts");
    const other = tables.flatMap((file) =>
      allImportsOf(file)
        .filter((path) => !TABLE_IMPORTS.test(path))
        .map((path) => `${file} -> ${path}`),
    );
    expect(other).toEqual([]);
  });

  test("public pages reach no schema or database library, and no contract", () => {
    const routes = readFileSync(join(root, "src/web/routes.ts"), "utf8");
    const publicPages = [...routes.matchAll(/import\("\.\/([^"]+)"\)/g)]
      .map((m) => `src/web/${m[1]}`)
      .filter((file) => !file.includes("/admin"));
    expect(publicPages).toContain("src/web/features/blog/blog-post-page.tsx");
    const reached = new Set<string>();
    for (const start of ["src/web/entry.client.tsx", ...publicPages])
      for (const file of reach(start)) reached.add(file);
    const banned = [...reached].filter((file) =>
      /^(drizzle-orm|drizzle-typebox|@sinclair\/typebox)(\/|$)|\/contract\.ts$|^src\/server\//.test(file),
    );
    expect(banned).toEqual([]);
  });

  test("web imports no server code: only the app's type, in the admin client", () => {
    const imports = sources("web").flatMap((file) => importsOf(file, "#server/").map((path) => `${file} -> ${path}`));
    const types = sources("web").flatMap((file) => typeImportsOf(file, "#server/").map((path) => `${file} -> ${path}`));
    // Every import of server code is a type import, and each is listed.
    expect(imports).toEqual(types);
    expect(types).toEqual(Object.entries(SERVER_TYPES).map(([file, path]) => `${file} -> ${path}`));
  });

  test("the server imports web code only where it renders pages", () => {
    const reaching = sources("server").filter((file) => importsOf(file, "#web/").length > 0);
    expect(reaching).toEqual(Object.keys(RENDERING).sort());
  });
});
