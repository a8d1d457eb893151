// What the storage check costs: it runs on every write and every /healthz. A real database
// file in WAL mode in a temporary folder, checked many times in a row.
// Run: bun bench/storage-check.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, openDatabase } from "#server/db/client.ts";
import { StorageHealth } from "#server/lib/storage-health.ts";

const dir = mkdtempSync(join(tmpdir(), "cam-guide-bench-"));
const database = openDatabase(join(dir, "app.db"), { keeper: true });
applyMigrations(database);
const storage = new StorageHealth({ dir, databaseFile: join(dir, "app.db"), probeEveryMs: 60_000 });
await storage.settled();

function measure(label: string, run: () => unknown, count = 100_000): void {
  for (let i = 0; i < 1000; i++) run();
  const start = performance.now();
  for (let i = 0; i < count; i++) run();
  const micros = ((performance.now() - start) * 1000) / count;
  console.log(`${label}: ${micros.toFixed(2)} µs per call (${count} calls)`);
}

measure("check() (database files, their contents, free space)", () => storage.check());
measure("databaseFileState() (what each database write asks)", () => storage.databaseFileState());
await storage.stop();
database.close();
rmSync(dir, { recursive: true, force: true });
