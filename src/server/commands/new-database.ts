// `cam-guide new-database`: an empty site on purpose, the old database kept aside.
import { basename, join, resolve } from "node:path";
import { makePrivateDir, setDatabaseAside, siteDatabase } from "#server/data-dir.ts";
import { lockDataDir } from "#server/db/lock.ts";
import { describeSeed, seedDatabase } from "#server/db/seed.ts";
import type { Config } from "#server/env.ts";
import { fail, openData, orFail, upgradeData } from "./common.ts";

/**
 * A site whose database went missing or is not recognised starts over only when the operator
 * says so; what was there is kept aside, never deleted.
 */
export async function newDatabase(config: Config) {
  const dir = resolve(config.dataDir);
  const db = join(dir, "app.db");
  if (siteDatabase(dir).state === "ours")
    fail(
      `${db} is this site's database: new-database only replaces a missing or unrecognised one. To put a backup in its place, use cam-guide restore <file>.`,
    );
  orFail(() => makePrivateDir(dir));
  // Alone, like a restore: never under a running server.
  const lock = orFail(() => lockDataDir(dir, "restore"));
  const found = siteDatabase(dir);
  if (found.state === "ours") fail(`${db} appeared meanwhile; nothing was changed.`);
  const aside = found.state === "none" ? [] : setDatabaseAside(dir);
  const { database } = openData(dir);
  await upgradeData(database);
  console.log(describeSeed(await seedDatabase(database)));
  database.close();
  lock.release();
  if (aside.length > 0)
    console.log(
      `What was there is kept, not deleted: ${aside.map((path) => basename(path)).join(", ")} in ${dir}${found.state === "unrecognised" ? ` (app.db ${found.problem})` : ""}.`,
    );
  console.log(
    `A new, empty database was created at ${db}. Start the server to create the admin account (its password is printed once).`,
  );
}
