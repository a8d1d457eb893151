// Runs a test command with the tests' runtime tuning in its environment
// (tests/support/runtime-tuning.ts): the runner and every process it starts inherit it.
// Usage: bun scripts/tuned.ts <command> [arguments...]
import { TEST_RUNTIME_ENV } from "#tests/support/runtime-tuning.ts";

const argv = process.argv.slice(2);
if (argv.length === 0) {
  console.error("Usage: bun scripts/tuned.ts <command> [arguments...]");
  process.exit(2);
}
const child = Bun.spawn(argv, {
  env: { ...process.env, ...TEST_RUNTIME_ENV },
  stdio: ["inherit", "inherit", "inherit"],
});
// Ctrl-C and a stop reach the command, which ends as it would without this wrapper.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
await child.exited;
process.exit(child.exitCode ?? 1);
