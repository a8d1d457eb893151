import type { Db } from "#server/db/types.ts";
import type { Logger } from "#server/logger.ts";
import {
  finishBucketDeletions,
  forgetDeletedLocally,
  logBucketDeletionsTo,
  reconcileUploads,
  registerExistingUploads,
} from "./registry.ts";
import { storeOf } from "./store.ts";

// What the server does with the media library when it starts: one log line per kind of thing
// put right, each with its count, and nothing said when there was nothing to do.

const count = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/**
 * Before serving: deletions a stop cut short are finished, copies no row lists removed, rows
 * whose file is gone counted (kept; the library marks them).
 */
export async function reconcileMedia(db: Db, dir: string, logger: Logger): Promise<void> {
  let done: Awaited<ReturnType<typeof reconcileUploads>>;
  try {
    done = await reconcileUploads(db, dir);
  } catch (error) {
    // A folder that cannot be changed now (read-only, say) is no reason not to serve; tried again next start.
    logger.error("could not put the media library in step with the uploads folder", { error });
    return;
  }
  if (done.finished > 0)
    logger.info(
      `finished ${count(done.finished, "deletion")} of ${done.finished === 1 ? "an upload" : "uploads"} that a stop interrupted`,
    );
  if (done.orphans > 0)
    logger.info(`removed ${count(done.orphans, "smaller copy", "smaller copies")} that no upload in the library lists`);
  if (done.missing > 0)
    logger.warn(
      `${count(done.missing, "upload")} in the media library ${done.missing === 1 ? "has lost its file" : "have lost their files"} (marked in Admin → Media: put the file back from a backup, or delete the entry)`,
    );
}

/**
 * Once serving, in the background: files without a row are recorded and missing smaller copies
 * made again (an image is decoded for each, which takes a while).
 */
export function registerMediaInBackground(db: Db, dir: string, logger: Logger): void {
  // Kept in a bucket, the folder is this instance's cache: a file there without a row is one
  // deleted through another instance, never an upload to record. The bucket itself loses the
  // files of deletions a stop or a failing bucket left unfinished.
  if (storeOf(dir).kind === "bucket") {
    logBucketDeletionsTo(logger);
    void forgetDeletedLocally(db, dir).catch((error) =>
      logger.error("could not remove deleted uploads from this instance's folder", { error }),
    );
    void finishBucketDeletions(db, dir).then((removed) => {
      if (removed > 0)
        logger.info(
          `removed ${count(removed, "file")} of deleted uploads from the bucket (a deletion left unfinished)`,
        );
    });
    return;
  }
  void registerExistingUploads(db, dir)
    .then(({ recorded, remade }) => {
      if (recorded > 0) logger.info(`recorded ${count(recorded, "upload")} that had no row in the media library`);
      if (remade > 0) logger.info(`remade the smaller copies of ${count(remade, "upload")}`);
    })
    .catch((error) => logger.error("could not record earlier uploads in the media library", { error }));
}
