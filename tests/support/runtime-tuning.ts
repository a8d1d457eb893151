// How the tests' own processes run (the test runners, and every server or command they
// start): tuned for many short-lived processes, with no effect on what they do.
//
// - MIMALLOC_PURGE_DELAY=-1: Bun's allocator keeps the memory it has freed for its next use
//   instead of handing it back to the kernel at once; returning and faulting pages in again
//   took a quarter of a test server's CPU, in the kernel.
// - BUN_JSC_useFTLJIT=0: no top tier of the JavaScript compiler, whose compilations a process
//   living seconds never earns back (a sixth of a test server's CPU).
//
// A server under a steady load of page views measured 6.4–7.4 s of CPU without them, 3.9 s
// with both. The package.json scripts of the tests run through scripts/tuned.ts, which sets
// these; servers started by startServer get them too (it passes a clean environment). The
// shipped executable runs with neither, and bench/ measures it as it ships.
export const TEST_RUNTIME_ENV: Record<string, string> = {
  MIMALLOC_PURGE_DELAY: "-1",
  BUN_JSC_useFTLJIT: "0",
};
