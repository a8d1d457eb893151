import { openMemoryDatabase, type DatabaseHandle } from "#server/db/client.ts";
import { seedDatabase } from "#server/db/seed.ts";
import { createApp } from "#server/app.ts";
import { loadAssets, type AssetStore } from "#server/ssr/assets.ts";
import { memoryLogger } from "#server/logger.ts";
import type { LoginThrottle } from "#server/features/auth/throttle.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let assets: AssetStore | undefined;
export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";

/** The real app on a fresh in-memory database with the real migrations and seed. */
export function testApp(options: { seed?: boolean; loginThrottle?: LoginThrottle } = {}) {
  const database: DatabaseHandle = openMemoryDatabase();
  if (options.seed !== false) seedDatabase(database);
  assets ??= loadAssets();
  const logger = memoryLogger();
  const uploadsDir = mkdtempSync(join(tmpdir(), "cam-guide-uploads-"));
  const app = createApp({ database, secret: TEST_SECRET, uploadsDir, config: { publicUrl: null }, assets, logger, loginThrottle: options.loginThrottle });
  const request = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
  return { app, database, logger, request, uploadsDir };
}
