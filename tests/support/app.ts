import { databaseImage, openMemoryCopy, openMemoryDatabase, type DatabaseHandle } from "#server/db/client.ts";
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

// Seeding is asynchronous, and an app is wanted at once: the seed runs once into a template,
// and every test app opens its own copy of it.
const seeded = await (async () => {
  const template = openMemoryDatabase();
  await seedDatabase(template);
  const image = databaseImage(template);
  template.close();
  return image;
})();

/** The real app on a fresh in-memory database with the real migrations and seed. */
export function testApp(options: { seed?: boolean; loginThrottle?: LoginThrottle } = {}) {
  const database: DatabaseHandle = options.seed === false ? openMemoryDatabase() : openMemoryCopy(seeded);
  assets ??= loadAssets();
  const logger = memoryLogger();
  const uploadsDir = mkdtempSync(join(tmpdir(), "cam-guide-uploads-"));
  const app = createApp({ database, secret: TEST_SECRET, uploadsDir, config: { publicUrl: null }, assets, logger, loginThrottle: options.loginThrottle });
  const request = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
  return { app, database, logger, request, uploadsDir };
}
