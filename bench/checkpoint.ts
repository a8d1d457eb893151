// What the server's own checkpoint costs (db/checkpoints.ts): the event loop waits while it
// reads the pages the write-ahead log holds, folds the log into app.db and empties it, then while
// the watch hashes again the parts of the file those pages are in. A real database file in WAL mode in a temporary folder (on the disk
// under TMPDIR) of about 50 MB, the log filled to about 4 MB (1000 pages, the most the server
// lets it grow before folding it in at once), then checkpointed; repeated.
// Run: bun bench/checkpoint.ts
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKPOINT_LOG_BYTES } from "#server/db/checkpoints.ts";
import { applyMigrations, openDatabase } from "#server/db/client.ts";
import { watchDatabaseFile } from "#server/db/identity.ts";

const dir = mkdtempSync(join(tmpdir(), "cam-guide-bench-"));
const file = join(dir, "app.db");
const database = openDatabase(file, { keeper: true });
applyMigrations(database);
const { sqlite } = database;
sqlite.run("CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT)");
// 40 MB of rows, folded in, so scattered updates touch pages all over the file.
const insert = sqlite.prepare("INSERT INTO filler (body) VALUES (?)");
sqlite.transaction(() => {
  for (let i = 0; i < 40_000; i++) insert.run("x".repeat(900));
})();
database.checkpoint();

const logBytes = () => statSync(`${file}-wal`).size;
let rows = 40_000;
let seed = 1;
const random = () => {
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
};

let version = 0;
function fill(kind: "appended" | "scattered"): void {
  const update = sqlite.prepare("UPDATE filler SET body = ? WHERE id = ?");
  // One row per commit, as the site writes: a quiz result, a visit count. (SQLite writes no
  // page for a row updated to what it already holds: each body is new.)
  while (logBytes() < CHECKPOINT_LOG_BYTES) {
    const body = `${++version}`.padEnd(900, "y");
    if (kind === "appended") insert.run(body);
    else update.run(body, 1 + Math.floor(random() * rows));
  }
}

const watch = watchDatabaseFile(file);

function measure(kind: "appended" | "scattered", runs = 15): void {
  const reads: number[] = [];
  const times: number[] = [];
  const records: number[] = [];
  let log = 0;
  for (let i = 0; i < runs; i++) {
    fill(kind);
    log += logBytes();
    const start = performance.now();
    watch.beforeCheckpoint();
    const read = performance.now();
    const result = database.checkpoint();
    const folded = performance.now();
    watch.record();
    reads.push(read - start);
    times.push(folded - read);
    records.push(performance.now() - folded);
    if (!result?.complete) throw new Error("the checkpoint did not complete");
  }
  const at = (list: number[], q: number) =>
    list.toSorted((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))]!.toFixed(1);
  const size = (statSync(file).size / 1024 / 1024).toFixed(0);
  console.log(
    `${kind} rows, a ${(log / runs / 1024 / 1024).toFixed(1)} MB log into a ${size} MB file (${runs} runs): the log's pages read in median ${at(reads, 0.5)} ms, max ${at(reads, 1)} ms; checkpoint median ${at(times, 0.5)} ms, p90 ${at(times, 0.9)} ms, max ${at(times, 1)} ms; then the watch's record median ${at(records, 0.5)} ms, max ${at(records, 1)} ms`,
  );
}

measure("appended");
measure("scattered");
// Ten times the rows: what the watch costs must not grow with the file.
sqlite.transaction(() => {
  for (let i = 0; i < 9 * rows; i++) insert.run("x".repeat(900));
})();
watch.beforeCheckpoint();
database.checkpoint();
watch.record();
rows *= 10;
measure("appended");
measure("scattered");
const start = performance.now();
for (let i = 0; i < 1000; i++) database.checkpoint();
console.log(`an empty log: ${(((performance.now() - start) / 1000) * 1000).toFixed(1)} µs per checkpoint`);
watch.close();
database.close();
rmSync(dir, { recursive: true, force: true });
