import type { Connection, Model } from 'mongoose';
import { defineModel, documentSchema } from '@gl/service-kit';

/**
 * The activity timelines: every list endpoint reads activity events from one or more streams (a project's
 * events, an author's events, all project events), each an append-only sequence in ingestion order — which is
 * GitLab's order too (events sort by id).
 *
 * Why buckets keyed by a string `_id`: FerretDB v1 (the local default and the tests) answers a query
 * without scanning the whole collection only for `{_id: <string>}`; every other filter, sort or `$in`
 * decodes every document. So a stream is a head (`<stream>`, holding the newest, open bucket) and sealed,
 * numbered buckets (`<stream>#<n>`) of BUCKET_SIZE events, each read by its `_id`; a page is the head and
 * one or two bucket reads, at any depth. The events
 * inside a bucket are one JSON string: FerretDB decodes nested arrays of documents very slowly (a 47 kB
 * bucket of 100 nested events took 110 ms to read, the same bucket as a string 8 ms).
 */
export const BUCKET_SIZE = 20;

export interface TimelineHeadDoc {
  /** The stream key, e.g. `project:12`. */
  _id: string;
  /** Events appended so far; event i lives in bucket floor(i / BUCKET_SIZE). */
  count: number;
  /** Id of the last appended event (ids grow with ingestion): an event with an id ≤ this is already in. */
  lastId: number;
  /** First bucket still stored; older ones were removed by retention. */
  start: number;
  /** The open bucket's events (fewer than BUCKET_SIZE), JSON-encoded: appends write only this document. */
  open?: string;
  /**
   * Events appended that not every reader of their project may read (events.visibility `isSensitive`);
   * absent on streams begun before it was counted (then unknown). Retention leaves it as it is.
   */
  sensitive?: number;
  /**
   * JSON of the buckets the last append sealed, until their own documents are written: the head's
   * compare-and-set decides which writer's buckets they are, so any writer or reader may finish them.
   */
  pending?: string;
  /**
   * JSON `{"<bucket n>": k}`: how many slots of bucket n hold a removed event (a deleted author's, see
   * removal.ts) instead of the event. Positions never move, so appends, sealing and live readers stay as
   * they are; page skips and totals subtract these without reading buckets. Absent until a removal; every
   * head write compares it (with `count`), so an append never overwrites a removal's open bucket.
   */
  holes?: string;
}

export interface TimelineBucketDoc {
  /** `<stream>#<n>` */
  _id: string;
  /** The bucket's activity events, JSON-encoded, oldest first. */
  items: string;
  /** Creation time of the newest event in it (retention drops a bucket once this is past the cutoff). */
  newestAt: Date;
}

export interface TimelineModels {
  heads: Model<TimelineHeadDoc>;
  buckets: Model<TimelineBucketDoc>;
}

export function createTimelineModels(connection: Connection): TimelineModels {
  return {
    heads: defineModel(
      connection,
      'TimelineHead',
      documentSchema<TimelineHeadDoc>({
        _id: String,
        count: Number,
        lastId: Number,
        start: Number,
        open: String,
        sensitive: Number,
        pending: String,
        holes: String,
      }),
      'timeline_heads',
    ),
    buckets: defineModel(
      connection,
      'TimelineBucket',
      documentSchema<TimelineBucketDoc>({ _id: String, items: String, newestAt: Date }),
      'timeline_buckets',
    ),
  };
}
