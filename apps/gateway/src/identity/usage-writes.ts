import type { mongo } from 'mongoose';

/** How long a use waits for others to share its write. */
export const USAGE_FLUSH_MS = 1_000;

/** The driver's collection type assumes ObjectId keys; ours are numeric. */
const byId = (id: number): mongo.Filter<mongo.Document> =>
  ({ _id: id }) as unknown as mongo.Filter<mongo.Document>;

/**
 * The bookkeeping writes of authentication, a token's last_used_at and a user's last_activity_on, gathered
 * for up to USAGE_FLUSH_MS and written as one command per collection. One at a time, they were two database
 * commands for each user's first request in a while, as many as the lookups themselves (GitLab-like mix,
 * `GL_DB_COMMAND_TRACE=1`). Each value is the one its request set; they go through the raw collections
 * so that they do not flush the identity cache (they inform no access decision).
 *
 * A read that shows them (GET /user, a token list) lays what this process has not yet written over what it
 * read (`withUsage`, `withTokenUse`). Those reads used to write everything pending first: GET /user then
 * waited for a bulk update of every user active in the last second (FerretDB updates about two documents a
 * millisecond), 57 ms p50 in the GitLab-like mix at 50 requests a second.
 */
export function createUsageWrites(tokens: mongo.Collection, users: mongo.Collection) {
  const lastUsed = new Map<number, Date>();
  const activity = new Map<number, string>();
  /** What the write under way carries: still to be laid over reads until it lands. */
  let writingUses = new Map<number, Date>();
  let writingDays = new Map<number, string>();
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> = Promise.resolve();

  async function write(): Promise<void> {
    const uses = [...lastUsed];
    const days = [...activity];
    writingUses = new Map(lastUsed);
    writingDays = new Map(activity);
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
    writingUses = new Map();
    writingDays = new Map();
  }

  /** Writes what is pending now; resolves once it is written (tests, and the gateway when it stops). */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    inFlight = inFlight.then(write);
    return inFlight;
  }

  /** The user as read, with the activity day this process recorded and has not yet written. */
  function withUsage<T extends { _id: number; lastActivityOn?: string | null }>(user: T): T {
    const day = activity.get(user._id) ?? writingDays.get(user._id);
    return day !== undefined && day > (user.lastActivityOn ?? '') ? { ...user, lastActivityOn: day } : user;
  }

  /** The token as read, with the last use this process recorded and has not yet written. */
  function withTokenUse<T extends { _id: number; lastUsedAt: Date | null }>(token: T): T {
    const at = lastUsed.get(token._id) ?? writingUses.get(token._id);
    const stored = token.lastUsedAt ? new Date(token.lastUsedAt).getTime() : 0;
    return at !== undefined && at.getTime() > stored ? { ...token, lastUsedAt: at } : token;
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
    withUsage,
    withTokenUse,
  };
}
