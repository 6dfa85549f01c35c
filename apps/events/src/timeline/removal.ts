import type { ActivityDoc } from '../events.models';
import {
  bucketKey,
  completePending,
  decodeItems,
  encodeHoles,
  encodeItems,
  isRemoved,
  openBucket,
  readHead,
  readSealedBucket,
  sameHoles,
  type Head,
  type Slot,
} from './buckets';
import { BUCKET_SIZE, type TimelineBucketDoc, type TimelineModels } from './timeline.models';

/**
 * Taking a deleted author's events out of the timelines (GitLab deletes them: `events.author_id` is a loose
 * foreign key with `on_delete: async_delete`, config/gitlab_loose_foreign_keys.yml). Each event's slot is
 * replaced by a removed mark in place, so no position moves: appends, sealed buckets, live readers' positions
 * and retention are untouched, and the head counts the marks per bucket (`holes`) for totals and page skips.
 * Every step is idempotent (a bucket's marks are counted, never added up), so a removal cut short and run
 * again finishes the job.
 */

/** Sealed buckets changed per head write: a removal is many bounded steps, not one rewrite of the stream. */
export const REMOVAL_BATCH_BUCKETS = 25;

/**
 * How far before the bucket where the oldest id looked for would be (in buckets) a removal starts reading:
 * two replicas' batches may be appended out of id order (tail.ts REORDER_WINDOW: 1,000 events).
 */
const ORDER_SLACK_BUCKETS = 50;

/** Compare-and-set attempts lost to appends or other removals before a step gives up (the job retries). */
const ATTEMPTS = 100;

const toRemovedSlot = (slot: Slot): Slot =>
  isRemoved(slot) ? slot : { _id: slot._id, createdAt: slot.createdAt, removed: true };

const holesIn = (slots: Slot[]): number => slots.filter(isRemoved).length;

interface Marked {
  slots: Slot[];
  /** Events marked removed by this call. */
  removed: number;
}

/** The slots with the matching events marked removed; `seen` collects the ids matched (marked before or now). */
function markMatching(slots: Slot[], matches: (item: ActivityDoc) => boolean, seen: Set<number>): Marked {
  let removed = 0;
  const marked = slots.map((slot) => {
    if (isRemoved(slot)) {
      seen.add(slot._id);
      return slot;
    }
    if (!matches(slot)) return slot;
    seen.add(slot._id);
    removed += 1;
    return toRemovedSlot(slot);
  });
  return { slots: marked, removed };
}

/**
 * Marks a sealed bucket's matching events removed, with a compare-and-set on its content (another removal
 * may be changing the same bucket). Resolves how many it marked and how many marks the bucket holds.
 */
async function markInSealedBucket(
  models: TimelineModels,
  stream: string,
  n: number,
  matches: (item: ActivityDoc) => boolean,
  seen: Set<number>,
): Promise<{ removed: number; holes: number }> {
  const key = bucketKey(stream, n);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const bucket = await models.buckets.findOne({ _id: key }).lean<TimelineBucketDoc>();
    // Removed by retention (or never written: the caller completed the head's pending buckets first).
    if (!bucket) return { removed: 0, holes: 0 };
    const marked = markMatching(decodeItems(bucket.items), matches, seen);
    if (marked.removed === 0) return { removed: 0, holes: holesIn(marked.slots) };
    const result = await models.buckets.updateOne(
      { _id: key, items: bucket.items },
      { $set: { items: encodeItems(marked.slots) } },
    );
    if (result.modifiedCount === 1) return { removed: marked.removed, holes: holesIn(marked.slots) };
  }
  throw new Error(`timeline ${stream}: bucket ${n} kept changing during a removal`);
}

/**
 * The first sealed bucket a removal reads: where ids from `lowestId` on begin (a binary search on each
 * bucket's first id: ids grow with ingestion), less ORDER_SLACK_BUCKETS.
 */
async function firstBucketFor(
  models: TimelineModels,
  stream: string,
  head: Head,
  lowestId: number,
): Promise<number> {
  let lo = head.start;
  let hi = openBucket(head.count) - 1;
  let found = head.start;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const first = (await readSealedBucket(models, stream, mid))[0];
    if (first === undefined || first._id <= lowestId) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return Math.max(head.start, found - ORDER_SLACK_BUCKETS);
}

export interface StreamRemoval {
  /** Events marked removed by this run (0 when an earlier run already did it). */
  removed: number;
  /** Head writes (one per batch of up to REMOVAL_BATCH_BUCKETS buckets). */
  steps: number;
}

/**
 * Marks removed every event of a stream that `matches`, from where the lowest of `expected` (the ids the
 * activity log holds for it) would be on, a batch of sealed buckets at a time, each batch followed by one
 * head write of their marks (a compare-and-set: an append in between makes it read the head again; the
 * buckets' marks are already written and are counted again, not added). It stops once every expected id was
 * seen, else at the open bucket, which is changed with the head.
 */
export async function removeFromStream(
  models: TimelineModels,
  stream: string,
  matches: (item: ActivityDoc) => boolean,
  expected: Set<number>,
): Promise<StreamRemoval> {
  const outcome: StreamRemoval = { removed: 0, steps: 0 };
  if (expected.size === 0) return outcome;
  // The matched ids (marked now or before): once every expected one is among them, the rest is not read.
  const seen = new Set<number>();
  const allSeen = () => seen.size >= expected.size && [...expected].every((id) => seen.has(id));
  let head = await readHead(models, stream);
  if (head.count === 0) return outcome;
  let lowest = Infinity;
  for (const id of expected) lowest = Math.min(lowest, id);
  let n = await firstBucketFor(models, stream, head, lowest);
  for (let attempt = 1; ; attempt++) {
    await completePending(models, stream, head);
    const open = openBucket(head.count);
    const last = Math.min(Math.max(n, head.start) + REMOVAL_BATCH_BUCKETS, open);
    const holes = new Map<number, number>();
    // Buckets are documents of their own: a batch's are marked side by side.
    const batch = Array.from(
      { length: Math.max(0, last - Math.max(n, head.start)) },
      (_, i) => Math.max(n, head.start) + i,
    );
    const marks = await Promise.all(batch.map((b) => markInSealedBucket(models, stream, b, matches, seen)));
    for (const [i, marked] of marks.entries()) {
      outcome.removed += marked.removed;
      holes.set(batch[i]!, marked.holes);
    }
    const done = allSeen();
    const withOpen = last === open && !done;
    // The open bucket's marks exist only once the head is written: its ids count as seen from then on.
    const seenInOpen = new Set<number>();
    const openMarked = withOpen ? markMatching(head.open, matches, seenInOpen) : null;
    if (openMarked) holes.set(open, holesIn(openMarked.slots));
    if (await writeMarks(models, stream, head, holes, openMarked)) {
      outcome.steps += 1;
      for (const id of seenInOpen) seen.add(id);
      if (openMarked) outcome.removed += openMarked.removed;
      if (withOpen || done) return outcome;
      n = last;
      attempt = 0;
    } else if (attempt >= ATTEMPTS) {
      throw new Error(`timeline ${stream}: ${attempt} removal steps lost the race`);
    }
    head = await readHead(models, stream);
  }
}

/**
 * Writes a removal step's marks into the head: each bucket's count of marks (as counted, so a step run twice
 * writes the same), and the open bucket's slots, only if no append or other removal wrote the head since it
 * was read. Resolves false when one did.
 */
async function writeMarks(
  models: TimelineModels,
  stream: string,
  head: Head,
  holes: Map<number, number>,
  open: Marked | null,
): Promise<boolean> {
  const next = new Map(head.holes);
  for (const [n, k] of holes) next.set(n, k);
  const text = encodeHoles(next);
  if (text === (head.holesText ?? encodeHoles(new Map())) && !open?.removed) return true;
  const result = await models.heads.updateOne(
    { _id: stream, count: head.count, ...sameHoles(head.holesText) },
    { $set: { holes: text, ...(open?.removed ? { open: encodeItems(open.slots) } : {}) } },
  );
  return result.modifiedCount === 1;
}

/**
 * Deletes a whole stream (a deleted author's own): its sealed buckets a batch at a time, then its head, so a
 * run cut short finds the head and deletes the rest. Resolves how many bucket documents went.
 */
export async function dropStream(models: TimelineModels, stream: string): Promise<number> {
  const head = await readHead(models, stream);
  if (head.count === 0) return 0;
  let deleted = 0;
  const keys: string[] = [];
  for (let n = head.start; n < openBucket(head.count); n++) keys.push(bucketKey(stream, n));
  for (const p of head.pending) if (!keys.includes(p._id)) keys.push(p._id);
  // FerretDB answers `{_id: <string>}` by its key; a batch of single deletes keeps each one cheap.
  for (let i = 0; i < keys.length; i += BUCKET_SIZE) {
    const results = await Promise.all(
      keys.slice(i, i + BUCKET_SIZE).map((key) => models.buckets.deleteOne({ _id: key })),
    );
    deleted += results.reduce((sum, result) => sum + result.deletedCount, 0);
  }
  await models.heads.deleteOne({ _id: stream });
  return deleted;
}
