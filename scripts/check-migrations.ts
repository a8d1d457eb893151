// Fails when a table in src/server/features/*/table.ts changed without a generated migration,
// for either dialect: SQLite's in drizzle/, PostgreSQL's in drizzle-pg/. drizzle-kit generates
// into a scratch copy of each folder, and any new file there means one is missing.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..");

const DIALECTS = [
  { dialect: "sqlite", folder: "drizzle", config: "drizzle.config.ts", setup: "" },
  {
    dialect: "postgresql",
    folder: "drizzle-pg",
    config: "drizzle-pg.config.ts",
    // What drizzle-pg.config.ts sets: the tables are built with PostgreSQL's column helpers.
    setup: 'process.env.DATABASE_URL = "postgres://drizzle-kit.invalid/only-picks-the-dialect";\n',
  },
] as const;

/** Whether the folder's migrations match the tables; prints what drizzle-kit wanted when not. */
function check({ dialect, folder, config, setup }: (typeof DIALECTS)[number]): boolean {
  // drizzle-kit reads its out folder relative to the working directory, so the scratch
  // copy lives inside the checkout (ignored by git).
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  const scratch = mkdtempSync(join(root, "node_modules", ".cache", "migration-check-"));
  try {
    const relScratch = relative(root, scratch);
    const out = join(scratch, folder);
    cpSync(join(root, folder), out, { recursive: true });
    const scratchConfig = join(scratch, "drizzle.config.ts");
    writeFileSync(
      scratchConfig,
      `${setup}export default { dialect: "${dialect}", schema: "./src/server/db/schema.ts", out: ${JSON.stringify(`./${relScratch}/${folder}`)} };\n`,
    );
    const existing = readdirSync(out).filter((f) => f.endsWith(".sql"));
    const before = existing.length;
    const result = Bun.spawnSync(["bun", "--bun", "x", "drizzle-kit", "generate", `--config=${scratchConfig}`], {
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
      throw new Error(`drizzle-kit generate did not confirm the ${dialect} schema matches the migrations`);
    }
    if (result.exitCode !== 0) {
      console.error(output);
      throw new Error(`drizzle-kit generate failed for ${dialect}`);
    }
    if (after.length !== before) {
      console.error(
        `The database schema changed without a ${dialect} migration. Run \`bun run db:generate\` and commit ${folder}/.\nNew migration drizzle-kit wanted: ${after.filter((f) => !existing.includes(f)).join(", ")} (with --config=${config})`,
      );
      return false;
    }
    console.log(
      `${dialect}: migrations match the schema (${before} migration${before === 1 ? "" : "s"} in ${folder}/).`,
    );
    return true;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const results = DIALECTS.map(check);
if (results.includes(false)) process.exitCode = 1;
