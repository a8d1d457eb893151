// Preloaded by `bun test`: what runs here runs once per test file under `--parallel` (each
// file gets a fresh global), once per process otherwise; a hook here runs after every test file.
import { afterAll, setDefaultTimeout } from "bun:test";
import { ensureCurrent } from "../support/built.ts";
import { TEST_DEADLINE_MS } from "../support/deadlines.ts";
import { closeTestDatabases } from "../support/postgres.ts";
import { removeScratch } from "../support/scratch.ts";

// Many tests render pages, which link the client bundle's files: it is built here when it is
// missing or older than the sources, so any test file runs on a fresh clone.
ensureCurrent("client");

// No test leans on bun's 5-second default: real work on a busy machine gets a deadline sized
// for it (package.json passes the same value to `bun test`, for runs of several files in one
// process, where this line reaches only the first).
setDefaultTimeout(TEST_DEADLINE_MS);

afterAll(async () => {
  removeScratch();
  // A PostgreSQL test database a test left open (an app it made) is closed and dropped.
  await closeTestDatabases();
});
