import { bulkUpdate, isDuplicateKeyError } from '@gl/service-kit';
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

/**
 * A slot whose event was removed (its author was deleted): only the id and time stay, so positions, sealing,
 * the duplicate check of a redelivered event and retention work as before; readers pass it over.
 */
export interface RemovedSlot {
  _id: number;
  createdAt: Date;
  removed: true;
}

/** What a bucket position holds: an event, or the mark of a removed one. */
export type Slot = ActivityDoc | RemovedSlot;

export const isRemoved = (slot: Slot): slot is RemovedSlot => 'removed' in slot;

/** The events of a bucket's slots, without removed ones. */
export const eventsOf = (slots: Slot[]): ActivityDoc[] =>
  slots.filter((slot): slot is ActivityDoc => !isRemoved(slot));

export function encodeItems(items: Slot[]): string {
  return JSON.stringify(items);
}

export function decodeItems(text: string): Slot[] {
  const items = JSON.parse(text) as (Omit<Slot, 'createdAt'> & { createdAt: string })[];
  return items.map((item) => ({ ...item, createdAt: new Date(item.createdAt) }) as Slot);
}

/** A head's `holes` (see TimelineHeadDoc): removed slots per bucket number. */
export function decodeHoles(text: string | undefined): Map<number, number> {
  if (!text) return new Map();
  return new Map(Object.entries(JSON.parse(text) as Record<string, number>).map(([n, k]) => [Number(n), k]));
}

export function encodeHoles(holes: Map<number, number>): string {
  const entries = [...holes].filter(([, k]) => k > 0).sort(([a], [b]) => a - b);
  return JSON.stringify(Object.fromEntries(entries.map(([n, k]) => [String(n), k])));
}

/**
 * A stream's head: how many events it has, and the open bucket's events (fewer than BUCKET_SIZE, the
 * newest ones), so an append reads and writes one document and page 1 usually needs no other read.
 */
export interface Head {
  count: number;
  lastId: number;
  start: number;
  /** The open bucket's slots: indexes openBucket(count) * BUCKET_SIZE up to count - 1. */
  open: Slot[];
  /** Sensitive events appended (see TimelineHeadDoc); undefined when not known. */
  sensitive?: number;
  /** Buckets the last append sealed whose own documents may not be written yet (see appendEachOnce). */
  pending: TimelineBucketDoc[];
  /** Removed slots per bucket number (empty: none); compared as `holesText` by every head write. */
  holes: Map<number, number>;
  holesText?: string;
}
const EMPTY_HEAD: Head = { count: 0, lastId: 0, start: 0, open: [], pending: [], holes: new Map() };

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
    pending: decodePending(head.pending),
    holes: decodeHoles(head.holes),
    holesText: head.holes,
  };
}

/** How many stored slots hold an event, not a removed one (from bucket `start` on). */
export function liveCount(head: Head): number {
  let removed = 0;
  for (const [n, k] of head.holes) if (n >= head.start) removed += k;
  return Math.max(0, head.count - head.start * BUCKET_SIZE - removed);
}

/** The filter that matches a head only if its `holes` are still the ones read (absent: no removal yet). */
export const sameHoles = (holesText: string | undefined) =>
  holesText === undefined ? { holes: { $exists: false } } : { holes: holesText };

function decodePending(text: string | undefined): TimelineBucketDoc[] {
  if (!text) return [];
  const docs = JSON.parse(text) as (Omit<TimelineBucketDoc, 'newestAt'> & { newestAt: string })[];
  return docs.map((doc) => ({ ...doc, newestAt: new Date(doc.newestAt) }));
}

/**
 * Several sealed buckets in one round trip (`_id` among their keys, read by the `_id` index): a walk
 * through a long stream read them one `findOne` at a time, 500 commands to count an author's 10,000 events.
 */
export async function readSealedBuckets(
  models: TimelineModels,
  stream: string,
  numbers: number[],
): Promise<Map<number, Slot[]>> {
  const keys = new Map(numbers.map((n) => [bucketKey(stream, n), n]));
  const found = await models.buckets.find({ _id: { $in: [...keys.keys()] } }).lean<TimelineBucketDoc[]>();
  const read = new Map(found.map((bucket) => [keys.get(bucket._id)!, decodeItems(bucket.items)]));
  if (read.size < numbers.length) {
    // Sealed by an append whose bucket writes have not landed: they are in the head.
    const pending = (await readHead(models, stream)).pending;
    for (const doc of pending) {
      const n = keys.get(doc._id);
      if (n !== undefined && !read.has(n)) read.set(n, decodeItems(doc.items));
    }
  }
  return read;
}

export async function readSealedBucket(models: TimelineModels, stream: string, n: number): Promise<Slot[]> {
  const key = bucketKey(stream, n);
  const bucket = await models.buckets.findOne({ _id: key }).lean<TimelineBucketDoc>();
  if (bucket) return decodeItems(bucket.items);
  // Sealed by an append whose bucket write has not landed (or whose writer stopped): it is in the head.
  const pending = (await readHead(models, stream)).pending.find((doc) => doc._id === key);
  return pending ? decodeItems(pending.items) : [];
}

/**
 * Writes the head after an append, only if no other writer appended since `seenCount` was read (a
 * compare-and-set on `count`, which every append raises, and on `holes`, which a removal changes; a missing
 * head is created, and a second creator gets a duplicate key). The buckets the append sealed ride along in
 * `pending` until they are written.
 */
async function writeHeadIfUnchanged(
  models: TimelineModels,
  stream: string,
  seenCount: number,
  seenHoles: string | undefined,
  head: Omit<Head, 'start' | 'holes'>,
): Promise<boolean> {
  try {
    const result = await models.heads.updateOne(
      { _id: stream, count: seenCount, ...sameHoles(seenHoles) },
      {
        $set: {
          count: head.count,
          lastId: head.lastId,
          open: encodeItems(head.open),
          pending: JSON.stringify(head.pending),
          ...(head.sensitive === undefined ? {} : { sensitive: head.sensitive }),
        },
        $setOnInsert: { start: 0 },
      },
      { upsert: true },
    );
    return result.modifiedCount + result.upsertedCount === 1;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

/** Found in a bucket's JSON only where a slot was marked removed (a string value would escape the quotes). */
const REMOVED_MARK = /"removed":true/;

/**
 * Writes the sealed buckets a head carries in `pending` (upserts: whoever finishes them writes the same
 * events, fixed when that head won its compare-and-set), then empties `pending` if the head is unchanged.
 * A bucket a removal has marked meanwhile is left as it is (its upsert meets the key and fails), so a late
 * finisher never brings back a deleted author's events.
 */
export async function completePending(models: TimelineModels, stream: string, head: Head): Promise<void> {
  if (head.pending.length === 0) return;
  try {
    await bulkUpdate(
      models.buckets,
      head.pending.map(({ _id, ...fields }) => ({
        updateOne: { filter: { _id, items: { $not: REMOVED_MARK } }, update: { $set: fields }, upsert: true },
      })),
    );
  } catch (err) {
    // Unordered: the other buckets were written.
    if (!isDuplicateKeyError(err)) throw err;
  }
  await models.heads.updateOne({ _id: stream, count: head.count }, { $set: { pending: '[]' } });
}

/** A sealed bucket's document: its events, and the newest one's time for retention. */
function bucketDoc(stream: string, n: number, items: Slot[]): TimelineBucketDoc {
  return { _id: bucketKey(stream, n), items: encodeItems(items), newestAt: items.at(-1)!.createdAt };
}

export interface AppendResult {
  appended: boolean;
  /** This was the stream's first event. */
  first: boolean;
}

/** How often an append re-reads the head after another writer appended first, before it gives up (and
 * the batch is redelivered). */
const APPEND_ATTEMPTS = 100;

/**
 * Appends one event to a stream, once. Any number of writers (consumer replicas) may append to one stream:
 * the head write is a compare-and-set, and the buckets an append seals are carried in the head's `pending`
 * until their own documents are written, so a crash or a lost race never loses or doubles an event.
 * JetStream may redeliver an event after newer ones, so an event whose id is not above every id in the
 * stream is looked for in the open and the last sealed buckets first.
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
 * sealed buckets they fill) however many there are: appendToStream for a batch of events. When another
 * writer appended in between, it reads the head again and starts over.
 */
export async function appendEachOnce(
  models: TimelineModels,
  stream: string,
  list: ActivityDoc[],
): Promise<AppendResult> {
  for (let attempt = 1; ; attempt++) {
    const head = await readHead(models, stream);
    await completePending(models, stream, head);
    const fresh = await notYetIn(models, stream, list, head);
    if (fresh.length === 0) return { appended: false, first: false };
    const next = { ...nextHead(head, fresh), pending: sealedBy(stream, head, fresh) };
    if (await writeHeadIfUnchanged(models, stream, head.count, head.holesText, next)) {
      await completePending(models, stream, { ...next, start: head.start, holes: head.holes });
      return { appended: true, first: head.count === 0 };
    }
    if (attempt >= APPEND_ATTEMPTS) throw new Error(`timeline ${stream}: ${attempt} appends lost the race`);
    // Another writer won: let it finish before reading its head.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(attempt, 10)));
  }
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
  const all: Slot[] = [...head.open, ...list];
  const sealed: TimelineBucketDoc[] = [];
  for (let offset = 0; offset + BUCKET_SIZE <= all.length; offset += BUCKET_SIZE) {
    sealed.push(bucketDoc(stream, first + sealed.length, all.slice(offset, offset + BUCKET_SIZE)));
  }
  return sealed;
}

/** The head after appending `list`: the events past the last full bucket stay open. */
function nextHead(head: Head, list: ActivityDoc[]): Omit<Head, 'start' | 'pending' | 'holes'> {
  const count = head.count + list.length;
  const all: Slot[] = [...head.open, ...list];
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
  const next = { ...nextHead(head, list), pending: [] };
  if (!(await writeHeadIfUnchanged(models, stream, head.count, head.holesText, next)))
    throw new Error(`timeline ${stream}: appended to during a bulk load`);
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
