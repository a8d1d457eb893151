// Preloaded by `bun test`: what runs here runs once per run, and a hook once after every
// test file of the run.
import { afterAll } from "bun:test";
import { ensureCurrent } from "../support/built.ts";
import { removeScratch } from "../support/scratch.ts";

// Many tests render pages, which link the client bundle's files: it is built here when it is
// missing or older than the sources, so any test file runs on a fresh clone.
ensureCurrent("client");

afterAll(() => removeScratch());
