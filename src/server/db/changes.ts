// What the pages show changed, told to every instance of the site. On PostgreSQL a trigger on
// each table the pages read bumps one version row in the changing statement's own transaction
// and notifies at its commit (drizzle-pg/0001_change_feed.sql); each instance listens, and reads
// the version again after reconnecting (a notification sent meanwhile is lost) and every few
// seconds on a cache hit (ssr/page-cache.ts), so no instance serves an old page for long.
import type { PostgresHandle } from "./postgres.ts";

const CHANGES_CHANNEL = "cam_guide_changes";

/** Tables whose changes touch only the pages of saved results (the rest touch every page). */
export const RESULT_TABLES = new Set(["quiz_results", "earnings_results"]);

interface Change {
  table: string;
  version: number;
}

export interface ChangeFeed {
  /** The version now: it grows with every change the pages may show. */
  version(): Promise<number>;
  /**
   * Calls `onChange` for every change committed from here on (by any instance or command), and
   * `onConnect` each time the listening connection is made again (changes may have been missed).
   * Answers how to stop listening.
   */
  listen(onChange: (change: Change) => void, onConnect: () => void): Promise<() => Promise<void>>;
}

/** PostgreSQL's change feed, on the handle's pool (LISTEN takes a connection of its own). */
export function postgresChanges(handle: PostgresHandle): ChangeFeed {
  return {
    async version() {
      const [row] = await handle.client<{ version: string }[]>`select version from cam_guide_changes where id = 1`;
      return Number(row?.version ?? 0);
    },
    async listen(onChange, onConnect) {
      let first = true;
      const { unlisten } = await handle.client.listen(
        CHANGES_CHANNEL,
        (payload) => {
          const [table = "", version = "0"] = payload.split(" ");
          onChange({ table, version: Number(version) });
        },
        () => {
          // The first connection is the one listen() waits for; every later one is a reconnection.
          if (first) first = false;
          else onConnect();
        },
      );
      return unlisten;
    },
  };
}
