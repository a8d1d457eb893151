// Fails when a table in src/server/features/*/table.ts changed without a generated migration in drizzle/:
// drizzle-kit generates into a scratch copy, and any new file there means one is missing.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..");
// drizzle-kit reads its out folder relative to the working directory, so the scratch
// copy lives inside the checkout (ignored by git).
mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
const scratch = mkdtempSync(join(root, "node_modules", ".cache", "migration-check-"));
try {
  const relScratch = relative(root, scratch);
  const out = join(scratch, "drizzle");
  cpSync(join(root, "drizzle"), out, { recursive: true });
  const config = join(scratch, "drizzle.config.ts");
  writeFileSync(
    config,
    `export default { dialect: "sqlite", schema: "./src/server/db/schema.ts", out: ${JSON.stringify(`./${relScratch}/drizzle`)} };\n`,
  );
  const existing = readdirSync(out).filter((f) => f.endsWith(".sql"));
  const before = existing.length;
  const result = Bun.spawnSync(["bun", "--bun", "x", "drizzle-kit", "generate", `--config=${config}`], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = result.stdout.toString() + result.stderr.toString();
  // drizzle-kit can fail and still exit 0: only its own all-clear counts as success.
  const clean = /No schema changes/i.test(output);
  const after = readdirSync(out).filter((f) => f.endsWith(".sql"));
  if (!clean && after.length === before) {
    console.error(output);
    throw new Error("drizzle-kit generate did not confirm the schema matches the migrations");
  }
  if (result.exitCode !== 0) {
    console.error(result.stdout.toString(), result.stderr.toString());
    throw new Error("drizzle-kit generate failed");
  }
  if (after.length !== before) {
    console.error(
      `The database schema changed without a migration. Run \`bun run db:generate\` and commit drizzle/.\nNew migration drizzle-kit wanted: ${after.filter((f) => !existing.includes(f)).join(", ")}`,
    );
    process.exitCode = 1;
  } else console.log(`Migrations match the schema (${before} migration${before === 1 ? "" : "s"}).`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
