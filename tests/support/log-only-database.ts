// A cam-guide database as a young site left it before the server checkpointed its own log: a
// main file of one page with the ids in its header, and everything else (tables, rows) in the
// write-ahead log beside it. Built from a real database with SQLite, copied out while the
// connection that wrote it is still open (so no checkpoint folded the log in).
import { Database } from "bun:sqlite";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "./scratch.ts";

/** Writes `target` (and `target`-wal, `target`-shm) holding what `source` holds, all of it in the log. */
export function writeLogOnlyCopy(source: string, target: string): void {
  const header = readFileSync(source);
  const work = join(scratchDir("log-only"), "app.db");
  const sqlite = new Database(work);
  // The ids first, in rollback mode: page 1 on disk has them, as cam-guide creates a file.
  sqlite.run(`PRAGMA application_id = ${header.readInt32BE(68)}`);
  sqlite.run(`PRAGMA user_version = ${header.readInt32BE(60)}`);
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA wal_autocheckpoint = 0");
  sqlite.run(`ATTACH '${source.replace(/'/g, "''")}' AS src`);
  const objects = sqlite
    .query(
      "SELECT type, name, sql FROM src.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'table' DESC",
    )
    .all() as { type: string; name: string; sql: string }[];
  // A full-text table (CREATE VIRTUAL TABLE) makes its own shadow tables, and the triggers
  // fill it as the rows it indexes are copied: neither is made or copied by hand.
  const virtual = objects.filter((o) => /^CREATE VIRTUAL TABLE/i.test(o.sql)).map((o) => o.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  const made = objects.filter((o) => !shadow(o.name));
  sqlite.transaction(() => {
    for (const { sql } of made) sqlite.run(sql);
    for (const { type, name } of made)
      if (type === "table" && !virtual.includes(name))
        sqlite.run(`INSERT INTO main."${name}" SELECT * FROM src."${name}"`);
    const sequence = sqlite.query("SELECT 1 FROM src.sqlite_master WHERE name = 'sqlite_sequence'").get();
    if (sequence) sqlite.run("INSERT INTO main.sqlite_sequence SELECT * FROM src.sqlite_sequence");
  })();
  for (const suffix of ["", "-wal", "-shm"]) copyFileSync(work + suffix, target + suffix);
  sqlite.close();
}
