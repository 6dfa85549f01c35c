import type { mongo } from 'mongoose';
import { createUsageWrites } from './usage-writes';

/** A collection that records its bulk writes (the only call usage-writes makes). */
function recordingCollection() {
  const writes: unknown[][] = [];
  const collection = {
    bulkWrite: (ops: unknown[]) => {
      writes.push(ops);
      return Promise.resolve({});
    },
  } as unknown as mongo.Collection;
  return { collection, writes };
}

describe('usage writes', () => {
  it('When several requests record uses within the window, then each collection gets one write with the latest values', async () => {
    const tokens = recordingCollection();
    const users = recordingCollection();
    const usage = createUsageWrites(tokens.collection, users.collection);
    const first = new Date('2026-11-28T07:00:00Z');
    const later = new Date('2026-11-28T07:00:01Z');
    usage.tokenUsed(1, first);
    usage.tokenUsed(2, first);
    usage.tokenUsed(1, later);
    usage.userActive(5, '2026-11-28');
    await usage.flush();
    expect(tokens.writes).toEqual([
      [
        { updateOne: { filter: { _id: 1 }, update: { $set: { lastUsedAt: later } } } },
        { updateOne: { filter: { _id: 2 }, update: { $set: { lastUsedAt: first } } } },
      ],
    ]);
    expect(users.writes).toEqual([
      [{ updateOne: { filter: { _id: 5 }, update: { $set: { lastActivityOn: '2026-11-28' } } } }],
    ]);
  });

  it('When a read shows the values before they are written, then the pending ones are laid over it, not flushed', async () => {
    const tokens = recordingCollection();
    const users = recordingCollection();
    const usage = createUsageWrites(tokens.collection, users.collection);
    const at = new Date('2026-11-28T10:00:00Z');
    usage.tokenUsed(3, at);
    usage.userActive(5, '2026-11-28');
    expect(usage.withTokenUse({ _id: 3, lastUsedAt: null })).toEqual({ _id: 3, lastUsedAt: at });
    expect(usage.withTokenUse({ _id: 4, lastUsedAt: null })).toEqual({ _id: 4, lastUsedAt: null });
    expect(usage.withUsage({ _id: 5, lastActivityOn: '2026-11-01' })).toEqual({
      _id: 5,
      lastActivityOn: '2026-11-28',
    });
    // A newer stored value wins (another replica wrote it).
    expect(usage.withUsage({ _id: 5, lastActivityOn: '2026-11-29' }).lastActivityOn).toBe('2026-11-29');
    expect(tokens.writes).toHaveLength(0);
    const writing = usage.flush();
    expect(usage.withUsage({ _id: 5, lastActivityOn: null }).lastActivityOn).toBe('2026-11-28');
    await writing;
    expect(tokens.writes).toHaveLength(1);
    expect(usage.withUsage({ _id: 5, lastActivityOn: null }).lastActivityOn).toBeNull();
  });

  it('When a write fails, then it is not retried and later uses are still written', async () => {
    const users = recordingCollection();
    let calls = 0;
    const failing = {
      bulkWrite: () => {
        calls++;
        return Promise.reject(new Error('down'));
      },
    } as unknown as mongo.Collection;
    const usage = createUsageWrites(failing, users.collection);
    usage.tokenUsed(1, new Date());
    await usage.flush();
    usage.userActive(2, '2026-11-28');
    await usage.flush();
    expect(calls).toBe(1);
    expect(users.writes).toHaveLength(1);
  });
});
