import type { Counters } from './counters';

/**
 * Ids taken from a sequence a block at a time: `next` on a listed key answers from a block this process
 * reserved with one `$inc` of the block's size, so a write that needs an id stops paying a round trip for
 * it (a comment or an issue paid one of its five to nine). For ids only, never for iids: ids may skip (a
 * block not used up is lost when the process stops, as a database sequence skips after a rollback) and two
 * replicas' ids interleave in time (as concurrent transactions take sequence values in one order and
 * commit in another), while an iid must be the project's next number.
 */
export function withIdBlocks(counters: Counters, blockSizes: Readonly<Record<string, number>>): Counters {
  const blocks = new Map<string, { next: number; end: number }>();
  /** A block being reserved, shared by the requests that found the last one used up. */
  const reserving = new Map<string, Promise<void>>();

  async function refill(key: string, size: number): Promise<void> {
    let pending = reserving.get(key);
    if (!pending) {
      pending = counters.nextMany(key, size).then(
        (first) => {
          blocks.set(key, { next: first, end: first + size });
          reserving.delete(key);
        },
        (err: unknown) => {
          reserving.delete(key);
          throw err;
        },
      );
      reserving.set(key, pending);
    }
    await pending;
  }

  async function take(key: string, n: number, size: number): Promise<number> {
    for (;;) {
      const block = blocks.get(key);
      if (block && block.end - block.next >= n) {
        const first = block.next;
        block.next += n;
        return first;
      }
      await refill(key, size);
    }
  }

  return {
    next(key) {
      const size = blockSizes[key];
      return size ? take(key, 1, size) : counters.next(key);
    },
    nextMany(key, n) {
      const size = blockSizes[key];
      // A batch larger than a block takes its own range straight from the sequence.
      return size && n <= size ? take(key, n, size) : counters.nextMany(key, n);
    },
    async ensureAtLeast(key, value) {
      // Whatever this process holds may lie below the new floor.
      blocks.delete(key);
      await counters.ensureAtLeast(key, value);
    },
  };
}
