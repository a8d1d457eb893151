// Several instances on one PostgreSQL database must sign sessions with one JWT_SECRET: a
// session signed by one is checked by whichever instance the next request reaches. One started
// with another secret used to start quietly, and the admin was signed out at random. Each
// instance now writes down, while it runs, a check of its secret (never the secret), and one
// whose check differs from a running instance's is refused at start, with what to do.
import { hostname } from "node:os";
import { eq, lt, ne, sql } from "drizzle-orm";
import type { Db } from "#server/db/types.ts";
import type { Logger } from "#server/logger.ts";
import { runningInstances } from "./table.ts";

/** How often a running instance says so. */
const HEARTBEAT_MS = 20_000;
/** An instance not heard from for this long stopped without saying so (killed, its machine gone). */
export const STALE_SECONDS = 60;

/** A check of the session secret: an HMAC of a fixed text under it, from which it cannot be found. */
export function secretCheck(secret: string): string {
  return new Bun.CryptoHasher("sha256", secret).update("cam-guide: the check of the session secret").digest("hex");
}

/** An instance refused because a running one signs sessions with another JWT_SECRET. */
export class SecretMismatch extends Error {}

/**
 * Set when this instance, back after losing the database for over a minute, finds that an
 * instance with another JWT_SECRET started meanwhile: /healthz then answers 503 with it, so a
 * load balancer takes this one out of rotation (a restart with the same secret is refused).
 */
let conflict: string | null = null;
export const secretConflict = () => conflict;

/** "vm (process 1234)": where an instance runs, from its id. */
const whereRuns = (id: string) => {
  const [host, pid] = id.split("~");
  return pid ? `${host} (process ${pid})` : (host ?? id);
};

export interface Membership {
  /** Says this instance is running (its timer does, every 20 s). */
  beat(): Promise<void>;
  /** Says this instance has stopped (at a graceful stop). */
  leave(): Promise<void>;
}

/** A running instance whose secret's check is not `check`, if any. */
async function otherSecret(db: Db, check: string): Promise<{ id: string } | undefined> {
  const [other] = await db
    .select({ id: runningInstances.id })
    .from(runningInstances)
    .where(ne(runningInstances.secretCheck, check))
    .limit(1);
  return other;
}

/** Rows of instances not heard from for STALE_SECONDS, in the database's own time. */
const stale = () => lt(runningInstances.seenAt, sql`now() - make_interval(secs => ${STALE_SECONDS})`);

/**
 * Writes this instance down as running with the check of `secret`, after refusing
 * (SecretMismatch) when a running instance's check differs. Called under the lock instances
 * take at start, so two starting together with different secrets cannot both pass.
 */
export async function joinInstances(db: Db, secret: string, logger: Pick<Logger, "error">): Promise<Membership> {
  const check = secretCheck(secret);
  const id = `${hostname()}~${process.pid}~${crypto.randomUUID().slice(0, 8)}`;
  await db.delete(runningInstances).where(stale());
  const other = await otherSecret(db, check);
  if (other)
    throw new SecretMismatch(
      `JWT_SECRET differs from the one an instance of this site running on ${whereRuns(other.id)} signs sessions with: each would sign the admin out of the other. Give every instance the same JWT_SECRET. To change it, stop every instance, then start them with the new one (an instance stopped without a word counts as stopped ${STALE_SECONDS} seconds after it was last heard from). Nothing was changed.`,
    );
  await db.insert(runningInstances).values({ id, secretCheck: check });
  let mismatchTold = false;
  const beat = async () => {
    try {
      const seen = await db
        .update(runningInstances)
        .set({ seenAt: sql`now()` })
        .where(eq(runningInstances.id, id))
        .returning({ id: runningInstances.id });
      if (seen.length > 0) return;
      // Taken for stopped while it could not reach the database: written down again, and told
      // if another secret came in meanwhile.
      await db.insert(runningInstances).values({ id, secretCheck: check }).onConflictDoNothing();
      const differs = await otherSecret(db, check);
      if (differs && !mismatchTold) {
        mismatchTold = true;
        conflict = `An instance on ${whereRuns(differs.id)} started with another JWT_SECRET while this one could not reach the database: this one is out of service; give every instance the same JWT_SECRET and restart it`;
        logger.error(conflict);
      }
    } catch {
      // The database out of reach: the next beat tries again.
    }
  };
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref?.();
  return {
    beat,
    async leave() {
      clearInterval(timer);
      conflict = null;
      await db
        .delete(runningInstances)
        .where(eq(runningInstances.id, id))
        .catch(() => {});
    },
  };
}
