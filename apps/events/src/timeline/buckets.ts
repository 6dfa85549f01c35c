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

async function sealBucket(
  models: TimelineModels,
  stream: string,
  n: number,
  items: ActivityDoc[],
): Promise<void> {
  const { _id, ...fields } = bucketDoc(stream, n, items);
  await models.buckets.updateOne({ _id }, { $set: fields }, { upsert: true });
}

/** How far back (in sealed buckets) an append looks for the same event appended before newer ones. */
const REPAIR_SEARCH_BUCKETS = 10;

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
export async function appendToStream(
  models: TimelineModels,
  stream: string,
  item: ActivityDoc,
): Promise<AppendResult> {
  const head = await readHead(models, stream);
  if (item._id <= head.lastId && (await alreadyIn(models, stream, item._id, head))) {
    return { appended: false, first: false };
  }
  const open = [...head.open, item];
  const count = head.count + 1;
  if (open.length === BUCKET_SIZE) await sealBucket(models, stream, openBucket(head.count), open);
  await writeHead(models, stream, {
    count,
    lastId: Math.max(head.lastId, item._id),
    open: open.length === BUCKET_SIZE ? [] : open,
    sensitive: sensitiveAfter(head, [item]),
  });
  return { appended: true, first: head.count === 0 };
}

async function alreadyIn(models: TimelineModels, stream: string, id: number, head: Head): Promise<boolean> {
  if (head.open.some((i) => i._id === id)) return true;
  const newestSealed = openBucket(head.count) - 1;
  for (let n = newestSealed; n >= Math.max(head.start, newestSealed - REPAIR_SEARCH_BUCKETS + 1); n--) {
    if ((await readSealedBucket(models, stream, n)).some((i) => i._id === id)) return true;
  }
  return false;
}

/**
 * Appends many events to one stream in a few writes (bulk loads: the bench's seed); unlike appendToStream it
 * does not look for events already in, so it is for fresh events only.
 */
export async function appendManyToStream(
  models: TimelineModels,
  stream: string,
  list: ActivityDoc[],
): Promise<void> {
  if (list.length === 0) return;
  const head = await readHead(models, stream);
  const first = openBucket(head.count);
  const all = [...head.open, ...list];
  const sealed: TimelineBucketDoc[] = [];
  let offset = 0;
  for (; offset + BUCKET_SIZE <= all.length; offset += BUCKET_SIZE) {
    sealed.push(bucketDoc(stream, first + sealed.length, all.slice(offset, offset + BUCKET_SIZE)));
  }
  for (let i = 0; i < sealed.length; i += 500) await models.buckets.insertMany(sealed.slice(i, i + 500));
  await writeHead(models, stream, {
    count: head.count + list.length,
    lastId: Math.max(head.lastId, ...list.map((item) => item._id)),
    open: all.slice(offset),
    sensitive: sensitiveAfter(head, list),
  });
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
