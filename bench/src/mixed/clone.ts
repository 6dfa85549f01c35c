import type mongoose from 'mongoose';

/**
 * The bulk loaders' shared tools. The fixture copies documents a service wrote for a template made through
 * the API (a user, an issue and its notes) instead of building them from field lists here, so a field a
 * service adds later is copied too and the copies stay in the shapes the services write.
 */
export type Doc = Record<string, unknown>;

const BATCH = 5_000;

/** A copy of `value` with every string passed through `swap` (dates, ids and buffers kept as they are). */
export function swapStrings(value: unknown, swap: (s: string) => string): unknown {
  if (typeof value === 'string') return swap(value);
  if (Array.isArray(value)) return value.map((item) => swapStrings(item, swap));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swapStrings(v, swap)]));
  }
  return value;
}

/** Copies never carry the template's outbox entries: their events were published once, for the template. */
export const withoutOutbox = (doc: Doc): Doc =>
  '_outbox' in doc ? { ...doc, _outbox: [], _outboxPending: false } : doc;

/**
 * Claims `n` consecutive values of a service's sequence (its `counters` collection, as
 * libs/service-kit/src/mongo/counters.ts `nextMany` does) and returns the first, so ids the service hands
 * out later never collide with the copies.
 */
export async function claimIds(connection: mongoose.Connection, key: string, n: number): Promise<number> {
  const doc = await connection
    .collection<{ _id: string; value: number }>('counters')
    .findOneAndUpdate({ _id: key }, { $inc: { value: n } }, { upsert: true, returnDocument: 'after' });
  return doc!.value - n + 1;
}

/** Inserts documents in batches as they are produced, so a million copies never sit in memory at once. */
export class BatchWriter {
  private readonly pending = new Map<string, Doc[]>();
  written = 0;

  constructor(private readonly connection: mongoose.Connection) {}

  async add(collection: string, doc: Doc): Promise<void> {
    const list = this.pending.get(collection) ?? [];
    list.push(doc);
    this.pending.set(collection, list);
    if (list.length >= BATCH) await this.flushOne(collection);
  }

  private async flushOne(collection: string): Promise<void> {
    const list = this.pending.get(collection);
    if (!list || list.length === 0) return;
    this.pending.set(collection, []);
    await this.connection.collection(collection).insertMany(list, { ordered: false });
    this.written += list.length;
  }

  async flush(): Promise<void> {
    for (const collection of [...this.pending.keys()]) await this.flushOne(collection);
  }
}

/** Logs `what done/total (rate/s)` every 10 s while `work` runs. */
export async function withProgress<T>(
  log: (line: string) => void,
  what: string,
  done: () => number,
  total: number,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const timer = setInterval(() => {
    const seconds = (performance.now() - started) / 1_000;
    log(`mixed: ${what} ${done()}/${total} (${Math.round(done() / seconds)}/s)`);
  }, 10_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Polls `check` every 250 ms until it holds or `timeoutMs` passes; resolves whether it held. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}
