// Preloaded by `bun test`: a hook here runs once, after every test file of the run.
import { afterAll } from "bun:test";
import { removeScratch } from "../support/scratch.ts";

afterAll(() => removeScratch());
