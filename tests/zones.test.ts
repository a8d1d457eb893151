// The direction of imports between the code zones (docs/architecture.md#zones): web and
// server both build on shared; the server reaches into web only where it renders pages, and
// web takes only the app's route type from the server (erased when built).
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
  // The theme script is inlined into every page's head, before first paint.
  "src/server/app.ts": "inlines the theme script",
};

/** The web files that take a type from the server (with `import type`), and which module. */
const SERVER_TYPES: Record<string, string> = {
  // The admin pages' client (Eden Treaty) is typed by the app's routes: `App`.
  "src/web/admin/admin-client.ts": "#server/app.ts",
};

describe("imports between the zones", () => {
  test("shared imports neither web nor server", () => {
    const leaks = sources("shared").flatMap((file) =>
      [...importsOf(file, "#web/"), ...importsOf(file, "#server/")].map((path) => `${file} -> ${path}`),
    );
    expect(leaks).toEqual([]);
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
