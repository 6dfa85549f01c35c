import type { ActivityDoc } from '../events.models';
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

export type Head = Pick<TimelineHeadDoc, 'count' | 'lastId' | 'start'>;
const EMPTY_HEAD: Head = { count: 0, lastId: 0, start: 0 };

export async function readHead(models: TimelineModels, stream: string): Promise<Head> {
  const head = await models.heads.findOne({ _id: stream }).lean<TimelineHeadDoc>();
  return head ?? EMPTY_HEAD;
}

async function readBucket(models: TimelineModels, stream: string, n: number): Promise<ActivityDoc[]> {
  const bucket = await models.buckets.findOne({ _id: bucketKey(stream, n) }).lean<TimelineBucketDoc>();
  return bucket ? decodeItems(bucket.items) : [];
}

/** How far back (in buckets) an append looks for the same event already appended before a crash. */
const REPAIR_SEARCH_BUCKETS = 10;

export interface AppendResult {
  appended: boolean;
  /** This was the stream's first event. */
  first: boolean;
}

/**
 * Appends one event to a stream, once. The stream's single writer (the activity consumer) may crash
 * between writing the bucket and the head, and JetStream may then redeliver the event after newer ones:
 * so an event whose id is not above every id in the stream is looked for in the last buckets first.
 */
export async function appendToStream(
  models: TimelineModels,
  stream: string,
  item: ActivityDoc,
): Promise<AppendResult> {
  const head = await readHead(models, stream);
  let n = Math.floor(head.count / BUCKET_SIZE);
  let items = await readBucket(models, stream, n);
  // A bucket written without its head (a crash in between) holds more than the head says.
  const count = n * BUCKET_SIZE + items.length;
  const lastId = Math.max(head.lastId, ...items.map((i) => i._id));
  if (item._id <= lastId && (await alreadyIn(models, stream, item._id, n, items, head.start))) {
    if (count !== head.count) await writeHead(models, stream, count, lastId);
    return { appended: false, first: false };
  }
  if (items.length >= BUCKET_SIZE) {
    n += 1;
    items = [];
  }
  items.push(item);
  await models.buckets.updateOne(
    { _id: bucketKey(stream, n) },
    { $set: { items: encodeItems(items), newestAt: item.createdAt } },
    { upsert: true },
  );
  await writeHead(models, stream, n * BUCKET_SIZE + items.length, Math.max(lastId, item._id));
  return { appended: true, first: count === 0 };
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
  const firstBucket = Math.floor(head.count / BUCKET_SIZE);
  const buckets: ActivityDoc[][] = [await readBucket(models, stream, firstBucket)];
  for (const item of list) {
    if (buckets.at(-1)!.length >= BUCKET_SIZE) buckets.push([]);
    buckets.at(-1)!.push(item);
  }
  const doc = (items: ActivityDoc[], i: number) => ({
    _id: bucketKey(stream, firstBucket + i),
    items: encodeItems(items),
    newestAt: items.at(-1)!.createdAt,
  });
  const [open, ...rest] = buckets.map(doc);
  const { _id: openId, ...openFields } = open!;
  await models.buckets.updateOne({ _id: openId }, { $set: openFields }, { upsert: true });
  for (let i = 0; i < rest.length; i += 500) await models.buckets.insertMany(rest.slice(i, i + 500));
  const count = (firstBucket + buckets.length - 1) * BUCKET_SIZE + buckets.at(-1)!.length;
  await writeHead(models, stream, count, Math.max(head.lastId, ...list.map((item) => item._id)));
}

async function alreadyIn(
  models: TimelineModels,
  stream: string,
  id: number,
  openBucket: number,
  openItems: ActivityDoc[],
  start: number,
): Promise<boolean> {
  if (openItems.some((i) => i._id === id)) return true;
  for (let n = openBucket - 1; n >= Math.max(start, openBucket - REPAIR_SEARCH_BUCKETS); n--) {
    if ((await readBucket(models, stream, n)).some((i) => i._id === id)) return true;
  }
  return false;
}

async function writeHead(
  models: TimelineModels,
  stream: string,
  count: number,
  lastId: number,
): Promise<void> {
  await models.heads.updateOne(
    { _id: stream },
    { $set: { count, lastId }, $setOnInsert: { start: 0 } },
    { upsert: true },
  );
}

/**
 * Retention: removes the sealed buckets (never the open one, which the writer extends) whose newest event
 * is older than the cutoff, oldest first, and moves each head's `start` past them. A stream may keep up to
 * one bucket of events past the cutoff until the bucket's newest event expires too.
 */
export async function expireBuckets(models: TimelineModels, cutoff: Date): Promise<number> {
  let removed = 0;
  const heads = await models.heads.find({}).lean<TimelineHeadDoc[]>();
  for (const head of heads) {
    let start = head.start;
    while ((start + 1) * BUCKET_SIZE <= head.count) {
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
        this.bucket = await readBucket(this.models, this.stream, n);
        this.bucketNo = n;
      }
      const item = this.bucket[this.index - n * BUCKET_SIZE];
      this.index += this.order === 'desc' ? -1 : 1;
      // A missing slot (a bucket being written right now) is passed over, never invented.
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
