/**
 * Work that takes turns: each task starts once the one before it has ended, and only after the
 * server has had a chance to answer what arrived meanwhile. A flood of costly requests then
 * queues behind itself instead of in front of every other request: a cached page waits for at
 * most one task, not for all of them.
 */
export function takingTurns(): <T>(task: () => Promise<T> | T) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T> | T): Promise<T> => {
    const turn = last.then(async () => {
      // A macrotask between two turns: the requests that came in meanwhile are read and
      // answered (a cached page at once) before the next costly task runs.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return task();
    });
    // The next turn waits for this one to end, whether it failed or not.
    last = turn.catch(() => {});
    return turn;
  };
}
