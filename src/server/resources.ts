import { join } from "node:path";

// Files that ship beside the code (migrations, built client, public/) live at the
// repository root in development. `bun build --compile --asset DIR` embeds each folder
// by its base name under the executable's virtual root, readable with node:fs.
const compiled = Bun.isStandaloneExecutable;
const root = compiled ? import.meta.dir : join(import.meta.dir, "..", "..");

export function resourcePath(...parts: string[]): string {
  return join(root, ...parts);
}

/** The built client bundle: dist/client in a checkout, client/ inside the executable. */
export function clientBundleDir(): string {
  return compiled ? resourcePath("client") : resourcePath("dist", "client");
}
