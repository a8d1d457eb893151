// One upload's files are changed by one step at a time. An upload is an original and its smaller
// copies, all named after the same 22-character id; a step that registers it (a new upload from
// its rename on, an older file found in the folder, copies remade) or deletes it holds that id,
// and the next step on the same id starts only when the one before has finished, so a delete
// never meets a half-registered upload and a registration never meets a half-deleted one.

const queues = new Map<string, Promise<void>>();

/** The id an upload's files share: the first 22 characters of the original's or a copy's name. */
export const uploadIdOf = (name: string) => name.slice(0, 22);

/**
 * Runs `work` once every earlier step on the upload `name` (in the folder `dir`) has finished,
 * and before any later one starts. Steps on other uploads run alongside. A failed step does not
 * stop the ones queued after it.
 */
export async function withUploadName<T>(dir: string, name: string, work: () => Promise<T>): Promise<T> {
  const key = `${dir}\0${uploadIdOf(name)}`;
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(work);
  const settled = run.then(
    () => {},
    () => {},
  );
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
