// Where finished uploads are kept. By default the uploads folder in DATA_DIR is the only copy.
// With S3_BUCKET set, an S3-compatible bucket is where they are kept (several instances share
// it), and each instance's uploads folder holds what it received or served, as a cache: an
// upload still arrives on the server (its type checked from its bytes, its size bounded, an
// image's smaller copies made there), is put in the bucket before it is answered, and is still
// served from /uploads/<name> by the app, fetched from the bucket the first time an instance
// is asked for it (docs/decisions/081-uploads-in-a-bucket.md).
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { S3Client } from "bun";
import { CONTENT_TYPES, isFinishedUpload, syncDirectory, temporaryName } from "./uploads.ts";

export interface UploadStore {
  /** "disk": the uploads folder is the only copy; "bucket": an S3-compatible bucket is. */
  readonly kind: "disk" | "bucket";
  /** Keeps the finished files `names` of the uploads folder (an upload and its copies). */
  keep(dir: string, names: string[]): Promise<void>;
  /** Whether the file is kept (in the folder, or in the bucket). */
  has(dir: string, name: string): Promise<boolean>;
  /** Brings a kept file into the uploads folder if it is not there yet; false when it is kept nowhere. */
  bring(dir: string, name: string): Promise<boolean>;
  /** Forgets the files (their local copies are the caller's). */
  forget(names: string[]): Promise<void>;
}

/** The uploads folder alone. */
const diskStore: UploadStore = {
  kind: "disk",
  keep: async () => {},
  has: async (dir, name) => isFinishedUpload(dir, name),
  bring: async (dir, name) => isFinishedUpload(dir, name),
  forget: async () => {},
};

/** What S3_* say (env.ts checks them). */
export interface BucketConfig {
  bucket: string;
  endpoint: string | null;
  region: string | null;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Where the uploads are under the bucket: "uploads/" unless S3_PREFIX says otherwise. */
  prefix: string;
}

/** An S3-compatible bucket through Bun's own client (nothing else to install). */
export function bucketStore(config: BucketConfig): UploadStore {
  const client = new S3Client({
    bucket: config.bucket,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.region ? { region: config.region } : {}),
    ...(config.accessKeyId ? { accessKeyId: config.accessKeyId } : {}),
    ...(config.secretAccessKey ? { secretAccessKey: config.secretAccessKey } : {}),
  });
  const key = (name: string) => `${config.prefix}${name}`;
  // The same file asked for by several requests at once is fetched once.
  const bringing = new Map<string, Promise<boolean>>();
  return {
    kind: "bucket",
    async keep(dir, names) {
      await Promise.all(
        names.map((name) =>
          client.write(key(name), Bun.file(join(dir, name)), {
            type: CONTENT_TYPES[name.split(".").pop()!] ?? "application/octet-stream",
          }),
        ),
      );
    },
    async has(dir, name) {
      return isFinishedUpload(dir, name) || (await client.exists(key(name)));
    },
    bring(dir, name) {
      if (isFinishedUpload(dir, name)) return Promise.resolve(true);
      let run = bringing.get(name);
      if (!run) {
        run = (async () => {
          const remote = client.file(key(name));
          if (!(await remote.exists())) return false;
          // Under a temporary name until whole: a half-fetched file is never served.
          mkdirSync(dir, { recursive: true });
          const temp = join(dir, temporaryName());
          try {
            await Bun.write(temp, await remote.arrayBuffer());
            renameSync(temp, join(dir, name));
            await syncDirectory(dir);
          } finally {
            rmSync(temp, { force: true });
          }
          return true;
        })().finally(() => bringing.delete(name));
        bringing.set(name, run);
      }
      return run;
    },
    async forget(names) {
      // One after the other: a few files, and some S3-compatible servers fail deletes side by side.
      for (const name of names) await client.delete(key(name));
    },
  };
}

const stores = new Map<string, UploadStore>();

/** Called once by the app for its uploads folder when S3_BUCKET is set. */
export function keepUploadsIn(dir: string, store: UploadStore): void {
  stores.set(dir, store);
}

/** Where the uploads of folder `dir` are kept. */
export function storeOf(dir: string): UploadStore {
  return stores.get(dir) ?? diskStore;
}
