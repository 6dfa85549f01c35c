import type { mongo } from 'mongoose';

/** How long a use waits for others to share its write. */
export const USAGE_FLUSH_MS = 1_000;

/** The driver's collection type assumes ObjectId keys; ours are numeric. */
const byId = (id: number): mongo.Filter<mongo.Document> =>
  ({ _id: id }) as unknown as mongo.Filter<mongo.Document>;

/**
 * The bookkeeping writes of authentication, a token's last_used_at and a user's last_activity_on, gathered
 * for up to USAGE_FLUSH_MS and written as one command per collection (at once when a read that shows or
 * decides on them comes first, `settled`). One at a time, they were two database
 * commands for each user's first request in a while, as many as the lookups themselves (GitLab-like mix,
 * `GL_DB_COMMAND_TRACE=1`). Each value is the one its request set; they go through the raw collections
 * so that they do not flush the identity cache (they inform no access decision).
 */
export function createUsageWrites(tokens: mongo.Collection, users: mongo.Collection) {
  const lastUsed = new Map<number, Date>();
  const activity = new Map<number, string>();
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> = Promise.resolve();

  async function write(): Promise<void> {
    const uses = [...lastUsed];
    const days = [...activity];
    lastUsed.clear();
    activity.clear();
    const writes: Promise<unknown>[] = [];
    if (uses.length > 0) {
      const ops = uses.map(([id, at]) => ({
        updateOne: { filter: byId(id), update: { $set: { lastUsedAt: at } } },
      }));
      writes.push(tokens.bulkWrite(ops, { ordered: false }));
    }
    if (days.length > 0) {
      const ops = days.map(([id, day]) => ({
        updateOne: { filter: byId(id), update: { $set: { lastActivityOn: day } } },
      }));
      writes.push(users.bulkWrite(ops, { ordered: false }));
    }
    // Bookkeeping only: a failed write is not retried (the next use a while later writes it again).
    await Promise.all(writes.map((w) => w.catch(() => undefined)));
  }

  /** Writes what is pending now; resolves once it is written (tests, and the gateway when it stops). */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    inFlight = inFlight.then(write);
    return inFlight;
  }

  /** Resolves once every use recorded so far is written: at once when none waits. */
  function settled(): Promise<void> {
    return lastUsed.size > 0 || activity.size > 0 ? flush() : inFlight;
  }

  function schedule(): void {
    if (timer) return;
    timer = setTimeout(() => void flush(), USAGE_FLUSH_MS);
    timer.unref();
  }

  return {
    tokenUsed(tokenId: number, at: Date): void {
      lastUsed.set(tokenId, at);
      schedule();
    },
    userActive(userId: number, day: string): void {
      activity.set(userId, day);
      schedule();
    },
    flush,
    settled,
  };
}
