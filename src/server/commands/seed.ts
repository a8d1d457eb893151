// `cam-guide seed`: the shipped content, added to a site that lacks it.
import { resolve } from "node:path";
import { makePrivateDir } from "#server/data-dir.ts";
import { lockDataDir } from "#server/db/lock.ts";
import { describeSeed, seedDatabase } from "#server/db/seed.ts";
import type { Config } from "#server/env.ts";
import { backUpBeforeUpgrade, openData, openPostgresSite, orFail, refuseUnusable, upgradeData } from "./common.ts";

export async function seed(config: Config) {
  if (config.databaseUrl) {
    const database = await openPostgresSite(config, async (db) => console.log(describeSeed(await seedDatabase(db))));
    await database.close();
    return;
  }
  const dir = resolve(config.dataDir);
  orFail(() => makePrivateDir(dir));
  refuseUnusable(dir);
  const lock = orFail(() => lockDataDir(dir, "shared"));
  await backUpBeforeUpgrade(dir, config.backupDir);
  const { database } = openData(dir);
  await upgradeData(database);
  console.log(describeSeed(await seedDatabase(database)));
  database.close();
  lock.release();
}
