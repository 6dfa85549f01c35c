import { bulkUpdate } from '../bulk-updates';
import type { ActivityDoc } from '../events.models';
import { isSensitive } from '../events.visibility';
import {
  BUCKET_SIZE,
  type TimelineBucketDoc,
  type TimelineHeadDoc,
  type TimelineModels,
} from './timeline.models';

/**
 * The storage of a timeline (timeline.models.ts explains why heads and string-keyed buckets): reading and
 * writing heads and buckets, appending and expiring. Readers and writers outside timeline/ go through
 * timeline.store.ts.
 */

export const bucketKey = (stream: string, n: number): string => `${stream}#${n}`;

export function encodeItems(items: ActivityDoc[]): string {
  return JSON.stringify(items);
}

export function decodeItems(text: string): ActivityDoc[] {
  const items = JSON.parse(text) as (Omit<ActivityDoc, 'createdAt'> & { createdAt: string })[];
  return items.map((item) => ({ ...item, createdAt: new Date(item.createdAt) }));
}

/**
 * A stream's head: how many events it has, and the open bucket's events (fewer than BUCKET_SIZE, the
 * newest ones), so an append reads and writes one document and page 1 usually needs no other read.
 */
export interface Head {
  count: number;
  lastId: number;
  start: number;
  /** The open bucket's events: indexes openBucket(count) * BUCKET_SIZE up to count - 1. */
  open: ActivityDoc[];
  /** Sensitive events appended (see TimelineHeadDoc); undefined when not known. */
  sensitive?: number;
}
const EMPTY_HEAD: Head = { count: 0, lastId: 0, start: 0, open: [] };

/**
 * The head's sensitive count after appending `items`: counted from a stream's first event on; a stream begun
 * before it was counted stays unknown (its readers get the per-event check).
 */
function sensitiveAfter(head: Head, items: ActivityDoc[]): number | undefined {
  const known = head.sensitive ?? (head.count === 0 ? 0 : undefined);
  return known === undefined ? undefined : known + items.filter(isSensitive).length;
}

/** The bucket that receives the next event; every bucket below it is sealed (a document of its own). */
export const openBucket = (count: number): number => Math.floor(count / BUCKET_SIZE);

export async function readHead(models: TimelineModels, stream: string): Promise<Head> {
  const head = await models.heads.findOne({ _id: stream }).lean<TimelineHeadDoc>();
  if (!head) return EMPTY_HEAD;
  return {
    count: head.count,
    lastId: head.lastId,
    start: head.start,
    open: decodeItems(head.open ?? '[]'),
    sensitive: head.sensitive,
  };
}

export async function readSealedBucket(
  models: TimelineModels,
  stream: string,
  n: number,
): Promise<ActivityDoc[]> {
  const bucket = await models.buckets.findOne({ _id: bucketKey(stream, n) }).lean<TimelineBucketDoc>();
  return bucket ? decodeItems(bucket.items) : [];
}

async function writeHead(models: TimelineModels, stream: string, head: Omit<Head, 'start'>): Promise<void> {
  await models.heads.updateOne(
    { _id: stream },
    {
      $set: {
        count: head.count,
        lastId: head.lastId,
        open: encodeItems(head.open),
        ...(head.sensitive === undefined ? {} : { sensitive: head.sensitive }),
      },
      $setOnInsert: { start: 0 },
    },
    { upsert: true },
  );
}

/** A sealed bucket's document: its events, and the newest one's time for retention. */
function bucketDoc(stream: string, n: number, items: ActivityDoc[]): TimelineBucketDoc {
  return { _id: bucketKey(stream, n), items: encodeItems(items), newestAt: items.at(-1)!.createdAt };
}

export interface AppendResult {
  appended: boolean;
  /** This was the stream's first event. */
  first: boolean;
}

/**
 * Appends one event to a stream, once. The head holds the open bucket, so the head write is the append;
 * a full open bucket is sealed (written as its own document, an idempotent upsert) just before. A crash
 * between the two leaves the head as it was: the redelivered event seals the same bucket again. JetStream
 * may redeliver an event after newer ones, so an event whose id is not above every id in the stream is
 * looked for in the open and the last sealed buckets first.
 */
export function appendToStream(
  models: TimelineModels,
  stream: string,
  item: ActivityDoc,
): Promise<AppendResult> {
  return appendEachOnce(models, stream, [item]);
}

/**
 * Appends events to a stream in their order, each once, with one head read and one head write (and the
 * sealed buckets they fill) however many there are: appendToStream for a batch of events.
 */
export async function appendEachOnce(
  models: TimelineModels,
  stream: string,
  list: ActivityDoc[],
): Promise<AppendResult> {
  const head = await readHead(models, stream);
  const fresh = await notYetIn(models, stream, list, head);
  if (fresh.length === 0) return { appended: false, first: false };
  const sealed = sealedBy(stream, head, fresh);
  if (sealed.length > 0) {
    // Upserts: the same bucket may be sealed again after a crash before its head was written.
    await bulkUpdate(
      models.buckets,
      sealed.map(({ _id, ...fields }) => ({
        updateOne: { filter: { _id }, update: { $set: fields }, upsert: true },
      })),
    );
  }
  await writeHead(models, stream, nextHead(head, fresh));
  return { appended: true, first: head.count === 0 };
}

/** The events of `list` not in the stream yet (nor earlier in the list), in their order. */
async function notYetIn(
  models: TimelineModels,
  stream: string,
  list: ActivityDoc[],
  head: Head,
): Promise<ActivityDoc[]> {
  const seen = new Set<number>();
  let recent: Set<number> | undefined;
  const fresh: ActivityDoc[] = [];
  for (const item of list) {
    if (seen.has(item._id)) continue;
    seen.add(item._id);
    if (item._id <= head.lastId) {
      recent ??= await recentIds(models, stream, head, Math.min(...list.map((i) => i._id)));
      if (recent.has(item._id)) continue;
    }
    fresh.push(item);
  }
  return fresh;
}

/**
 * How far back (in sealed buckets) an append looks for the same event appended before newer ones, past the
 * buckets that hold ids from the lowest one looked for on.
 */
const REPAIR_SEARCH_BUCKETS = 10;
/** At most this many (1,000 events, twice the consumer's batch): an id older than the stream stops here. */
const REPAIR_SEARCH_LIMIT = 50;

/**
 * The ids in the open bucket and the sealed ones back to the lowest id looked for, and REPAIR_SEARCH_BUCKETS
 * more: a redelivered batch may reach back as many buckets as it had events (ids grow with ingestion).
 */
async function recentIds(
  models: TimelineModels,
  stream: string,
  head: Head,
  lowest: number,
): Promise<Set<number>> {
  const ids = new Set(head.open.map((i) => i._id));
  let past = head.open.some((i) => i._id < lowest) ? 1 : 0;
  const newest = openBucket(head.count) - 1;
  const oldest = Math.max(head.start, newest - REPAIR_SEARCH_LIMIT + 1);
  for (let n = newest; n >= oldest && past <= REPAIR_SEARCH_BUCKETS; n--) {
    const items = await readSealedBucket(models, stream, n);
    for (const item of items) ids.add(item._id);
    if (past > 0 || items.some((i) => i._id < lowest)) past += 1;
  }
  return ids;
}

/** The buckets `list` fills after the head's open events (to be written before the head). */
function sealedBy(stream: string, head: Head, list: ActivityDoc[]): TimelineBucketDoc[] {
  const first = openBucket(head.count);
  const all = [...head.open, ...list];
  const sealed: TimelineBucketDoc[] = [];
  for (let offset = 0; offset + BUCKET_SIZE <= all.length; offset += BUCKET_SIZE) {
    sealed.push(bucketDoc(stream, first + sealed.length, all.slice(offset, offset + BUCKET_SIZE)));
  }
  return sealed;
}

/** The head after appending `list`: the events past the last full bucket stay open. */
function nextHead(head: Head, list: ActivityDoc[]): Omit<Head, 'start'> {
  const count = head.count + list.length;
  const all = [...head.open, ...list];
  return {
    count,
    lastId: Math.max(head.lastId, ...list.map((item) => item._id)),
    open: all.slice(all.length - (count % BUCKET_SIZE)),
    sensitive: sensitiveAfter(head, list),
  };
}

/**
 * Appends many events to one stream in a few writes (bulk loads: the bench's seed); unlike appendEachOnce
 * it does not look for events already in, so it is for fresh events only.
 */
export async function appendManyToStream(
  models: TimelineModels,
  stream: string,
  list: ActivityDoc[],
): Promise<void> {
  if (list.length === 0) return;
  const head = await readHead(models, stream);
  const sealed = sealedBy(stream, head, list);
  for (let i = 0; i < sealed.length; i += 500) await models.buckets.insertMany(sealed.slice(i, i + 500));
  await writeHead(models, stream, nextHead(head, list));
}

/**
 * Retention: removes the sealed buckets whose newest event is older than the cutoff, oldest first, and
 * moves each head's `start` past them. The open bucket stays in its head; so a stream may keep up to one
 * bucket of events past the cutoff until that bucket's newest event expires too.
 */
export async function expireBuckets(models: TimelineModels, cutoff: Date): Promise<number> {
  let removed = 0;
  const heads = await models.heads.find({}).select({ count: 1, start: 1 }).lean<TimelineHeadDoc[]>();
  for (const head of heads) {
    let start = head.start;
    while (start < openBucket(head.count)) {
      const bucket = await models.buckets
        .findOne({ _id: bucketKey(head._id, start) })
        .select({ newestAt: 1 })
        .lean<Pick<TimelineBucketDoc, 'newestAt'>>();
      if (bucket && bucket.newestAt >= cutoff) break;
      await models.buckets.deleteOne({ _id: bucketKey(head._id, start) });
      start += 1;
      removed += 1;
    }
    if (start !== head.start) await models.heads.updateOne({ _id: head._id }, { $set: { start } });
  }
  return removed;
}
