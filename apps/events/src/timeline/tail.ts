import type { ActivityDoc } from '../events.models';
import { BUCKET_SIZE, type TimelineModels } from './timeline.models';
import { isRemoved, openBucket, readHead, readSealedBucket, type Head } from './buckets';

/**
 * Reading a stream by position, for live readers. A position is an event's index in its stream: the head's
 * compare-and-set makes positions final in the order they become visible, so a reader that goes on from the
 * position after the last event it read misses nothing and sees nothing twice, however many writers append
 * (ids alone would not do: two replicas' batches may become visible out of id order).
 */

/** Events read from a stream from a position on, and the position to go on from. */
export interface TailRead {
  items: ActivityDoc[];
  next: number;
}

/** How far back `positionAfter` looks for an event id (in events): a resume older than this replays from here. */
export const RESUME_SEARCH_LIMIT = 10_000;

/**
 * How far (in events) two writers' appends can interleave out of id order: a batch is at most 500 events, so
 * two replicas' batches. Looking for an id stops this far past the first event with a smaller id.
 */
const REORDER_WINDOW = 1_000;

/** The position after the stream's last event (its count): where a reader that wants only new events starts. */
export async function endOf(models: TimelineModels, stream: string): Promise<number> {
  return (await readHead(models, stream)).count;
}

function firstStored(head: Head): number {
  return head.start * BUCKET_SIZE;
}

/** The event at each position in [from, to) of a head's stream, reading each sealed bucket once. */
async function eventsBetween(
  models: TimelineModels,
  stream: string,
  head: Head,
  from: number,
  to: number,
): Promise<ActivityDoc[]> {
  const open = openBucket(head.count);
  const items: ActivityDoc[] = [];
  for (let n = Math.floor(from / BUCKET_SIZE); n * BUCKET_SIZE < to; n++) {
    const bucket = n === open ? head.open : await readSealedBucket(models, stream, n);
    const lo = Math.max(from, n * BUCKET_SIZE) - n * BUCKET_SIZE;
    const hi = Math.min(to, (n + 1) * BUCKET_SIZE) - n * BUCKET_SIZE;
    // A slot retention removed meanwhile is passed over, never invented; so is a deleted author's event.
    for (let i = lo; i < hi; i++) {
      const item = bucket[i];
      if (item && !isRemoved(item)) items.push(item);
    }
  }
  return items;
}

/**
 * Up to `max` events from `position` on (from the oldest stored one when retention removed that far), and
 * the position after them.
 */
export async function readFrom(
  models: TimelineModels,
  stream: string,
  position: number,
  max: number,
): Promise<TailRead> {
  const head = await readHead(models, stream);
  const from = Math.max(position, firstStored(head));
  const to = Math.min(head.count, from + max);
  if (to <= from) return { items: [], next: Math.max(position, Math.min(from, head.count)) };
  return { items: await eventsBetween(models, stream, head, from, to), next: to };
}

/**
 * Where to resume after the event `eventId` (a client's Last-Event-ID): the position after it, looked for
 * from the newest event back over at most RESUME_SEARCH_LIMIT events. Not found (removed by retention, or an
 * id from another stream): after the newest event with a smaller id, since ids grow with ingestion (the
 * search stops REORDER_WINDOW events past it); past the search, from its oldest event.
 */
export async function positionAfter(
  models: TimelineModels,
  stream: string,
  eventId: number,
): Promise<number> {
  const head = await readHead(models, stream);
  // Newer than every event of the stream: an id from elsewhere; equal ids are looked for (a slower writer's
  // lower ids may have become visible after the newest one).
  if (head.count === 0 || eventId > head.lastId) return head.count;
  const oldest = Math.max(firstStored(head), head.count - RESUME_SEARCH_LIMIT);
  let fallback: number | null = null;
  for (let n = openBucket(head.count); n * BUCKET_SIZE + BUCKET_SIZE > oldest && n >= 0; n--) {
    const from = Math.max(oldest, n * BUCKET_SIZE);
    const to = Math.min(head.count, (n + 1) * BUCKET_SIZE);
    if (to <= from) continue;
    const bucket = n === openBucket(head.count) ? head.open : await readSealedBucket(models, stream, n);
    for (let i = to - 1; i >= from; i--) {
      const item = bucket[i - n * BUCKET_SIZE];
      if (!item) continue;
      if (item._id === eventId) return i + 1;
      if (fallback === null && item._id < eventId) fallback = i + 1;
    }
    if (fallback !== null && fallback - from > REORDER_WINDOW) break;
  }
  return fallback ?? oldest;
}
