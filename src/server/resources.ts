import { join } from "node:path";

// Files that ship beside the code (migrations, built client assets) live at the
// repository root in development and are embedded with --asset in the executable,
// where they keep the same relative paths under the executable's virtual root.
const root = Bun.isStandaloneExecutable ? import.meta.dir : join(import.meta.dir, "..", "..");

export function resourcePath(...parts: string[]): string {
  return join(root, ...parts);
}
