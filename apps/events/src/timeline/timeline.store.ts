import type { ActivityDoc } from '../events.models';
import { isSensitive } from '../events.visibility';
import {
  BUCKET_SIZE,
  type TimelineBucketDoc,
  type TimelineHeadDoc,
  type TimelineModels,
} from './timeline.models';

/** The streams an activity event belongs to: its project's, its author's, and (project events) all. */
export const streams = {
  project: (projectId: number): string => `project:${projectId}`,
  author: (authorId: number): string => `author:${authorId}`,
  allProjects: 'all-projects',
};

export function streamsOf(activity: ActivityDoc): string[] {
  const keys = [streams.author(activity.authorId)];
  if (activity.projectId !== null) keys.push(streams.project(activity.projectId), streams.allProjects);
  return keys;
}

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

async function readSealedBucket(models: TimelineModels, stream: string, n: number): Promise<ActivityDoc[]> {
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

async function sealBucket(
  models: TimelineModels,
  stream: string,
  n: number,
  items: ActivityDoc[],
): Promise<void> {
  const { _id, ...fields } = {
    _id: bucketKey(stream, n),
    items: encodeItems(items),
    newestAt: items.at(-1)!.createdAt,
  };
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
  const sealed: { _id: string; items: string; newestAt: Date }[] = [];
  let offset = 0;
  for (; offset + BUCKET_SIZE <= all.length; offset += BUCKET_SIZE) {
    const items = all.slice(offset, offset + BUCKET_SIZE);
    sealed.push({
      _id: bucketKey(stream, first + sealed.length),
      items: encodeItems(items),
      newestAt: items.at(-1)!.createdAt,
    });
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

export type Order = 'asc' | 'desc';

/** Reads a stream's events lazily in order, a bucket at a time, from a given position. */
export class StreamCursor {
  private bucket: ActivityDoc[] = [];
  private bucketNo: number;
  private index: number;
  private readonly end: number;
  private readonly first: number;
  private readonly open: ActivityDoc[];
  private readonly openNo: number;

  constructor(
    private readonly models: TimelineModels,
    private readonly stream: string,
    head: Head,
    private readonly order: Order,
    /** Events to pass over from the start (newest for desc), counted without reading them. */
    skip = 0,
  ) {
    this.first = head.start * BUCKET_SIZE;
    this.end = head.count;
    this.open = head.open;
    this.openNo = openBucket(head.count);
    this.index = order === 'desc' ? this.end - 1 - skip : this.first + skip;
    this.bucketNo = -1;
  }

  /** Events of this stream still stored. */
  get live(): number {
    return Math.max(0, this.end - this.first);
  }

  async next(): Promise<ActivityDoc | null> {
    while (this.index >= this.first && this.index < this.end) {
      const n = Math.floor(this.index / BUCKET_SIZE);
      if (n !== this.bucketNo) {
        this.bucket = n === this.openNo ? this.open : await readSealedBucket(this.models, this.stream, n);
        this.bucketNo = n;
      }
      const item = this.bucket[this.index - n * BUCKET_SIZE];
      this.index += this.order === 'desc' ? -1 : 1;
      // A missing slot (a sealed bucket that retention removed meanwhile) is passed over, never invented.
      if (item) return item;
    }
    return null;
  }
}

/** Merges several cursors by id (the streams' shared order), newest first for desc. */
export class MergedCursor {
  private readonly heads: (ActivityDoc | null | undefined)[];

  constructor(
    private readonly cursors: StreamCursor[],
    private readonly order: Order,
  ) {
    this.heads = cursors.map(() => undefined);
  }

  async next(): Promise<ActivityDoc | null> {
    await Promise.all(
      this.cursors.map(async (cursor, i) => {
        if (this.heads[i] === undefined) this.heads[i] = await cursor.next();
      }),
    );
    let best = -1;
    for (let i = 0; i < this.heads.length; i++) {
      const item = this.heads[i];
      if (!item) continue;
      const current = best >= 0 ? this.heads[best]! : null;
      if (!current || (this.order === 'desc' ? item._id > current._id : item._id < current._id)) best = i;
    }
    if (best < 0) return null;
    const item = this.heads[best]!;
    this.heads[best] = undefined;
    return item;
  }
}

/** GitLab (Kaminari MAX_COUNT_LIMIT): past 10,000 matches the total is not counted and not sent. */
export const COUNT_LIMIT = 10_000;

export interface TimelinePage {
  items: ActivityDoc[];
  /** Null when more than COUNT_LIMIT events match. */
  total: number | null;
  hasNext: boolean;
}

export interface PageWindow {
  skip: number;
  take: number;
}

/**
 * One page of matching events from a cursor, filtered before paging. Reads on until it knows the page,
 * whether a next page exists and the total — or that the total is past COUNT_LIMIT, where it stops.
 */
export async function pageOf(
  cursor: { next(): Promise<ActivityDoc | null> },
  window: PageWindow,
  matches: (item: ActivityDoc) => boolean,
): Promise<TimelinePage> {
  const items: ActivityDoc[] = [];
  const enough = Math.max(window.skip + window.take, COUNT_LIMIT) + 1;
  let matched = 0;
  for (let item = await cursor.next(); item !== null; item = await cursor.next()) {
    if (!matches(item)) continue;
    if (matched >= window.skip && matched < window.skip + window.take) items.push(item);
    matched += 1;
    if (matched >= enough) return { items, total: null, hasNext: true };
  }
  return {
    items,
    total: matched > COUNT_LIMIT ? null : matched,
    hasNext: matched > window.skip + window.take,
  };
}

/** A page of one stream with no filter: positions are known, so only the page's buckets are read. */
export async function unfilteredPage(
  models: TimelineModels,
  stream: string,
  order: Order,
  window: PageWindow,
): Promise<TimelinePage> {
  const head = await readHead(models, stream);
  const cursor = new StreamCursor(models, stream, head, order, window.skip);
  const items: ActivityDoc[] = [];
  for (let i = 0; i < window.take; i++) {
    const item = await cursor.next();
    if (!item) break;
    items.push(item);
  }
  const live = cursor.live;
  return { items, total: live > COUNT_LIMIT ? null : live, hasNext: window.skip + window.take < live };
}
