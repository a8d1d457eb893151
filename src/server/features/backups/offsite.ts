// Backups kept off the machine too: with S3_BUCKET set on a SQLite site, each backup the
// server writes (scheduled or "Back up now") is copied to the same bucket under backups/, and
// the automatic ones deleted here by the rotation are deleted there too. The copy is checked
// (its size read back) before the run is called a success.
import { join } from "node:path";
import { S3Client } from "bun";
import type { BucketConfig } from "#server/features/media/store.ts";

/** Where backups go in the bucket, beside the uploads. */
const BACKUPS_PREFIX = "backups/";

export interface OffSite {
  /** Copies `name` from `folder`, and deletes the `deleted` ones, in the bucket. */
  copy(folder: string, name: string, deleted: string[]): Promise<void>;
}

export function offSite(config: BucketConfig | null): OffSite | null {
  if (!config) return null;
  const client = new S3Client({
    bucket: config.bucket,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.region ? { region: config.region } : {}),
    ...(config.accessKeyId ? { accessKeyId: config.accessKeyId } : {}),
    ...(config.secretAccessKey ? { secretAccessKey: config.secretAccessKey } : {}),
  });
  return {
    async copy(folder, name, deleted) {
      const file = Bun.file(join(folder, name));
      await client.write(`${BACKUPS_PREFIX}${name}`, file, { type: "application/x-tar" });
      const { size } = await client.stat(`${BACKUPS_PREFIX}${name}`);
      if (size !== file.size) throw new Error(`the bucket holds ${size} of its ${file.size} bytes`);
      for (const old of deleted) await client.delete(`${BACKUPS_PREFIX}${old}`);
    },
  };
}
