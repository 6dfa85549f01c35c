import type { ActivityCheck } from '../activity-criteria';
import type { ActivityDoc } from '../events.models';
import type { TimelineModels } from './timeline.models';
import {
  appendEachOnce,
  appendManyToStream,
  appendToStream,
  expireBuckets,
  readHead,
  type AppendResult,
} from './buckets';
import {
  MergedCursor,
  StreamCursor,
  pageOf,
  unfilteredPage,
  type Order,
  type PageWindow,
  type TimelinePage,
} from './cursors';
import { dropStream, removeFromStream, type StreamRemoval } from './removal';
import { endOf, positionAfter, readFrom, type TailRead } from './tail';

export { COUNT_LIMIT, type Order, type PageWindow, type TimelinePage } from './cursors';
export type { AppendResult } from './buckets';
export type { TailRead } from './tail';
export type { StreamRemoval } from './removal';

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

/**
 * The activity timelines as the service uses them: events are appended to streams and read back a page at a
 * time; heads, buckets and cursors stay inside timeline/.
 */
export function createTimelineStore(models: TimelineModels) {
  return {
    /** Appends one event to a stream, once (a redelivered event is found and not appended again). */
    append(stream: string, item: ActivityDoc): Promise<AppendResult> {
      return appendToStream(models, stream, item);
    },

    /** Appends a batch of events to a stream in their order, each once, with one head read and write. */
    appendEachOnce(stream: string, items: ActivityDoc[]): Promise<AppendResult> {
      return appendEachOnce(models, stream, items);
    },

    /** Appends fresh events in a few writes (bulk loads); it does not look for events already in. */
    appendMany(stream: string, items: ActivityDoc[]): Promise<void> {
      return appendManyToStream(models, stream, items);
    },

    /**
     * One page of the events of one stream, or of several merged by id, checked before paging. One stream
     * without a check is read by position: only the page's buckets.
     */
    async page(
      keys: string[],
      order: Order,
      window: PageWindow,
      check: ActivityCheck,
    ): Promise<TimelinePage> {
      if (keys.length === 1 && !check) return unfilteredPage(models, keys[0]!, order, window);
      const cursors = await Promise.all(
        keys.map(async (key) => new StreamCursor(models, key, await readHead(models, key), order)),
      );
      const cursor = cursors.length === 1 ? cursors[0]! : new MergedCursor(cursors, order);
      return pageOf(cursor, window, check ?? (() => true));
    },

    /** Events appended to the stream that not every reader of its project may read; undefined when unknown. */
    async sensitiveCount(stream: string): Promise<number | undefined> {
      return (await readHead(models, stream)).sensitive;
    },

    /** Live readers: the position after the stream's last event (new events get this one and up). */
    end(stream: string): Promise<number> {
      return endOf(models, stream);
    },

    /** Live readers: up to `max` events from a position on, in the stream's order, and where to go on. */
    readFrom(stream: string, position: number, max: number): Promise<TailRead> {
      return readFrom(models, stream, position, max);
    },

    /** Live readers: the position after an event id (a resumed client's Last-Event-ID). */
    positionAfter(stream: string, eventId: number): Promise<number> {
      return positionAfter(models, stream, eventId);
    },

    /**
     * A deleted author's events leave a stream they share with others: marked removed in place, in bounded
     * steps, looked for from where the lowest expected id would be until every expected id was seen.
     */
    removeMatching(
      stream: string,
      matches: (item: ActivityDoc) => boolean,
      expected: Set<number>,
    ): Promise<StreamRemoval> {
      return removeFromStream(models, stream, matches, expected);
    },

    /** A deleted author's own stream goes as a whole. */
    drop(stream: string): Promise<number> {
      return dropStream(models, stream);
    },

    /** Retention: removes the sealed buckets whose newest event is older than the cutoff. */
    expire(cutoff: Date): Promise<number> {
      return expireBuckets(models, cutoff);
    },
  };
}

export type TimelineStore = ReturnType<typeof createTimelineStore>;
