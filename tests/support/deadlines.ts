// How long a test may take before it fails, sized for a busy 2-core machine (the test suite
// beside another CPU-bound process). A test that waits for something polls a condition until
// its own deadline (see waitUntilUp in binary.ts); this is the ceiling of a whole test.
export const TEST_DEADLINE_MS = 30_000;
