import { expect, test } from "bun:test";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "#tests/support/scratch.ts";
import { readTar, writeTar } from "./tar.ts";

test("an entry that may vanish (an upload deleted meanwhile) is left out; any other missing file fails", async () => {
  const dir = scratchDir("tar");
  writeFileSync(join(dir, "kept"), "kept bytes");
  const entries: [string, string][] = [
    ["app.db", join(dir, "kept")],
    ["uploads/gone.png", join(dir, "gone")],
  ];
  const archive = join(dir, "a.tar");
  const out = openSync(archive, "wx");
  expect(await writeTar(out, entries, undefined, (name) => name.startsWith("uploads/"))).toBe(1);
  closeSync(out);
  const names: string[] = [];
  await readTar(archive, async (name, _size, chunks) => {
    names.push(name);
    for await (const _chunk of chunks());
  });
  expect(names).toEqual(["app.db"]);

  const strict = openSync(join(dir, "b.tar"), "wx");
  await expect(writeTar(strict, entries)).rejects.toMatchObject({ code: "ENOENT" });
  closeSync(strict);
});
