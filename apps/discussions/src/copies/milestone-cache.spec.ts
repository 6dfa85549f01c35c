import { EventEmitter } from 'node:events';
import pino from 'pino';
import type { Bus } from '@gl/service-kit';
import type { MilestoneDoc } from './copies.models';
import { MILESTONE_FLUSH_SUBJECT, createMilestoneCache, shareMilestoneCache } from './milestone-cache';

const milestone = (id: number, title: string): MilestoneDoc => ({ _id: id, iid: id, title });

/** A stand-in for the copies collection: what it holds now, and how often it was read. */
function copies() {
  const stored = new Map<number, MilestoneDoc>();
  const reads: number[][] = [];
  return {
    stored,
    reads,
    read: async (ids: number[]) => {
      reads.push(ids);
      return ids.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : []));
    },
  };
}

/** Core NATS as the replicas share it: every subscriber of a subject gets every message published on it. */
function fakeBus() {
  const subjects = new EventEmitter();
  const reconnects: Array<() => void> = [];
  const bus = {
    connection: {
      subscribe: (subject: string, opts: { callback: (err: Error | null, msg: unknown) => void }) => {
        const listener = (data: string) => opts.callback(null, { json: (): unknown => JSON.parse(data) });
        subjects.on(subject, listener);
        return { unsubscribe: () => subjects.off(subject, listener) };
      },
      publish: (subject: string, data: string) => subjects.emit(subject, data),
    },
    onReconnect: (listener: () => void) => reconnects.push(listener),
  } as unknown as Pick<Bus, 'connection' | 'onReconnect'>;
  return { bus, reconnect: () => reconnects.forEach((l) => l()) };
}

const logger = pino({ level: 'silent' });

describe('The milestone copies cache', () => {
  it('When the same milestones are asked again, then they are read once, unknown ones included', async () => {
    const db = copies();
    db.stored.set(1, milestone(1, 'v1'));
    const cache = createMilestoneCache(db.read);
    expect(await cache.one(1)).toEqual(milestone(1, 'v1'));
    expect(await cache.many([1, 2])).toEqual([milestone(1, 'v1')]);
    expect(await cache.many([2, 1])).toEqual([milestone(1, 'v1')]);
    expect(db.reads).toEqual([[1], [2]]);
  });

  it('When a copy is forgotten, then the next ask reads it again; an entry older than its life too', async () => {
    const db = copies();
    db.stored.set(1, milestone(1, 'v1'));
    let clock = 0;
    const cache = createMilestoneCache(db.read, 1_000, () => clock);
    await cache.one(1);
    db.stored.set(1, milestone(1, 'v2'));
    cache.forget([1]);
    expect((await cache.one(1))?.title).toBe('v2');
    db.stored.set(1, milestone(1, 'v3'));
    clock = 1_001;
    expect((await cache.one(1))?.title).toBe('v3');
    expect(db.reads).toHaveLength(3);
  });

  it('When a copy changes while a read is under way, then what that read found is not kept', async () => {
    const db = copies();
    db.stored.set(1, milestone(1, 'old'));
    let release!: () => void;
    const cache = createMilestoneCache(async (ids) => {
      const found = await db.read(ids);
      await new Promise<void>((resolve) => (release = resolve));
      return found;
    });
    const pending = cache.one(1);
    await new Promise((resolve) => setImmediate(resolve));
    db.stored.set(1, milestone(1, 'new'));
    cache.forget([1]);
    release();
    expect((await pending)?.title).toBe('old');
    const next = cache.one(1);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await next)?.title).toBe('new');
  });

  it('When one replica writes a copy, then every replica forgets it; a reconnect forgets everything', async () => {
    const db = copies();
    db.stored.set(1, milestone(1, 'v1'));
    db.stored.set(2, milestone(2, 'w1'));
    const { bus, reconnect } = fakeBus();
    const writer = createMilestoneCache(db.read);
    const peer = createMilestoneCache(db.read);
    const writerShare = shareMilestoneCache(writer, bus, logger);
    shareMilestoneCache(peer, bus, logger);
    for (const cache of [writer, peer]) await cache.many([1, 2]);

    db.stored.set(1, milestone(1, 'v2'));
    writerShare.changed([1]);
    for (const cache of [writer, peer]) expect((await cache.one(1))?.title).toBe('v2');

    db.stored.set(2, milestone(2, 'w2'));
    reconnect();
    for (const cache of [writer, peer]) expect((await cache.one(2))?.title).toBe('w2');
    expect(MILESTONE_FLUSH_SUBJECT.startsWith('gl.')).toBe(false);
  });
});
