import type { EventEnvelope } from '@gl/contracts';
import {
  boundedTotal,
  countUpTo,
  createBeyondLimitMemo,
  findAcrossParts,
  isDuplicateKeyError,
  pushEvents,
  withEvents,
} from '@gl/service-kit';
import type { IncidentLinkDoc } from '../issues/incident-links.model';
import type { MilestoneDoc } from '../copies/copies.models';
import { createMilestoneCache } from '../copies/milestone-cache';
import type { NoteableDoc, NoteableKind } from './noteable.model';
import type { DiscussionsDeps } from '../discussions.models';
import { derivedFields } from './word-filters';
import { NARROW_LIMIT, createNoteableWordsStore, wordsOf } from './noteable-words.store';
import { HAS_VALUE, sortSpec, type IssuableOrder } from '../lists/issuable-order';

/** Which noteables of a list the caller may read; `all` when they read every one (no per-item check). */
export type ListVisibility = 'all' | ((doc: NoteableDoc) => boolean);

/** What a list selects: a kind in a project or group, optionally by state and iids. */
export interface NoteableListFilter {
  kind: NoteableKind;
  scope: 'projectId' | 'groupId';
  parentId: number;
  state?: string;
  iids?: number[];
}

/** The fields the read rule looks at: what a list reads of every candidate before it reads the page. */
const AUDIENCE_FIELDS = { _id: 1, kind: 1, confidential: 1, visibility: 1, author: 1, assigneeIds: 1 };

/** The document with the fields the list filters read beside labels and assignees (derivedFields). */
const withDerivedFields = (doc: NoteableDoc): NoteableDoc => ({ ...doc, ...derivedFields(doc) });

const newestFirst = (a: NoteableDoc, b: NoteableDoc): number => b._id - a._id;

/**
 * GitLab counts an issue or merge request list only up to Kaminari's MAX_COUNT_LIMIT: past 10,000 it sends
 * no X-Total, X-Total-Pages or `last` link (Gitlab::Pagination::OffsetPagination, api_kaminari_count_with_limit).
 */
export const LIST_COUNT_LIMIT = 10_000;

/** A page of a list, its total (null past LIST_COUNT_LIMIT) and whether another page follows. */
export interface CountedPage {
  items: NoteableDoc[];
  total: number | null;
  hasNext: boolean;
}

/**
 * Every read and write of `noteables` (issues, merge requests, snippets, epics), and of what they refer
 * to: the milestones and users copied from other services, the alert → incident links.
 */
export function createNoteablesStore(
  deps: Pick<DiscussionsDeps, 'models' | 'outbox'>,
  options: { listCountLimit?: number } = {},
) {
  const listCountLimit = options.listCountLimit ?? LIST_COUNT_LIMIT;
  const { models, outbox } = deps;
  const noteables = models.noteables;
  // A noteable's labels and assignees as entries of their own, written before the noteable (no reader
  // finds it with a label and no entry): noteable-words.store.ts.
  const words = createNoteableWordsStore(models.noteableWords);
  // Labels and assignees found on many noteables, for a minute: their lists skip counting the entries.
  const commonWords = createBeyondLimitMemo();
  /** A finder filter among the few noteables of a label or assignee it requires (noteable-words.store.ts). */
  const narrowed = (filter: Record<string, unknown>) => words.narrow(filter, NARROW_LIMIT, commonWords);
  // Lists found past the count limit, for a minute: their pages skip the count (beyond-limit-memo.ts).
  const longLists = createBeyondLimitMemo();
  // Milestone titles every issue answer shows, read once per change rather than once per answer.
  const milestoneCache = createMilestoneCache((ids) =>
    models.milestones.find({ _id: { $in: ids } }).lean<MilestoneDoc[]>(),
  );

  return {
    /** Inserts a noteable with the events it carries, then wakes the outbox relay. */
    async insert(doc: NoteableDoc, events: EventEnvelope[]): Promise<void> {
      await words.ensure(doc._id, wordsOf(doc));
      await noteables.create(withEvents(withDerivedFields(doc), events));
      outbox.kick(noteables);
    },

    /** As insert, for a noteable whose id may already be taken (a redelivered event): false then. */
    async insertOnce(doc: NoteableDoc, events: EventEnvelope[]): Promise<boolean> {
      try {
        await words.ensure(doc._id, wordsOf(doc));
        await noteables.create(withEvents(withDerivedFields(doc), events));
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        return false;
      }
      outbox.kick(noteables);
      return true;
    },

    /** `resourceEvents`: encoded resource events the same write carries (resource-events.store.ts moves them). */
    async update(
      id: number,
      set: Record<string, unknown>,
      events: EventEnvelope[],
      resourceEvents: string[] = [],
    ): Promise<void> {
      const carried =
        resourceEvents.length > 0 ? { $push: { _resourceEvents: { $each: resourceEvents } } } : {};
      await words.replace(id, wordsOf(set), async () => {
        await noteables.updateOne(
          { _id: id },
          pushEvents({ $set: { ...set, ...derivedFields(set) }, ...carried }, events),
        );
      });
      if (events.length > 0) outbox.kick(noteables);
    },

    async findById(id: number): Promise<NoteableDoc | null> {
      return noteables.findById(id).lean<NoteableDoc>();
    },

    async exists(id: number): Promise<boolean> {
      return (await noteables.exists({ _id: id })) !== null;
    },

    async findByIid(kind: NoteableKind, scope: 'projectId' | 'groupId', parentId: number, iid: number) {
      return noteables.findOne({ kind, [scope]: parentId, iid }).lean<NoteableDoc>();
    },

    /** Snippets and epics are addressed by database id within their project or group. */
    async findInParent(
      kind: 'Snippet' | 'Epic',
      scope: 'projectId' | 'groupId',
      parentId: number,
      id: number,
    ) {
      return noteables.findOne({ kind, [scope]: parentId, _id: id }).lean<NoteableDoc>();
    },

    /** The open merge request between two branches of a project, if there is one. */
    async openMergeRequest(projectId: number, sourceBranch: string, targetBranch: string) {
      return noteables
        .findOne({ kind: 'MergeRequest', projectId, state: 'opened', sourceBranch, targetBranch })
        .lean<NoteableDoc>();
    },

    /**
     * A page of noteables, newest first. When the caller may not read all of them, the readable ones are
     * found first from their audience fields only (the rule is checked in process, the same function every
     * service uses), so the page and X-Total count only those; then the page's documents are read.
     */
    async page(
      list: NoteableListFilter,
      skip: number,
      limit: number,
      visible: ListVisibility,
    ): Promise<{ items: NoteableDoc[]; total: number }> {
      const filter: Record<string, unknown> = { kind: list.kind, [list.scope]: list.parentId };
      if (list.state && list.state !== 'all') filter.state = list.state;
      if (list.iids) filter.iid = { $in: list.iids };
      if (visible === 'all') {
        const [items, total] = await Promise.all([
          noteables.find(filter).sort({ _id: -1 }).skip(skip).limit(limit).lean<NoteableDoc[]>(),
          noteables.countDocuments(filter),
        ]);
        return { items, total };
      }
      const candidates = await noteables.find(filter).select(AUDIENCE_FIELDS).lean<NoteableDoc[]>();
      const readable = candidates.filter(visible).sort(newestFirst);
      const ids = readable.slice(skip, skip + limit).map((doc) => doc._id);
      const items = ids.length ? await noteables.find({ _id: { $in: ids } }).lean<NoteableDoc[]>() : [];
      return { items: items.sort(newestFirst), total: readable.length };
    },

    /**
     * A page of the noteables a finder filter selects (issuables.finder.ts), in a list order
     * (issuable-order.ts), and how many there are. Items without a value for a nulls-last field are read
     * after the others, as a second range of the same window, so each part is still read along an index.
     * A filter requiring a label or assignee few noteables have is read among those (`narrowed`).
     */
    async pageWhere(
      filter: Record<string, unknown>,
      order: IssuableOrder,
      skip: number,
      limit: number,
    ): Promise<CountedPage> {
      filter = await narrowed(filter);
      const sort = sortSpec(order);
      // One more than the page: whether a next page exists, without a count past the limit.
      let found: NoteableDoc[];
      if (!order.field || !order.nullsLast) {
        found = await noteables
          .find(filter)
          .sort(sort)
          .skip(skip)
          .limit(limit + 1)
          .lean<NoteableDoc[]>();
      } else {
        // Nulls last: the items with a value in order, then those without by id (in parts, when the order
        // has them: issuable-order.ts blankParts), as one window (findAcrossParts).
        const valued = { $and: [filter, { [order.field]: HAS_VALUE[order.field] ?? { $ne: null } }] };
        const blank = { [order.field]: null };
        const blanks = (order.blankParts ?? [{}]).map((part) => ({
          filter: { $and: [filter, Object.keys(part).length > 0 ? { ...blank, ...part } : blank] },
          sort: { _id: order.tie },
        }));
        const parts = order.blanksFirst
          ? [...blanks, { filter: valued, sort }]
          : [{ filter: valued, sort }, ...blanks];
        found = await findAcrossParts<NoteableDoc>(noteables, parts, skip, limit + 1);
      }
      const items = found.slice(0, limit);
      const hasNext = found.length > limit;
      const total = await boundedTotal({ skip, shown: items.length, hasNext }, listCountLimit, () =>
        countUpTo(noteables, filter, listCountLimit, longLists),
      );
      return { items, total, hasNext };
    },

    /**
     * An issuable's thumbsup or thumbsdown count: absent when none (a thumbsup count absent sorts the
     * popularity order by id, issuable-order.ts).
     */
    async setVotesCount(noteableId: number, field: 'upvotesCount' | 'downvotesCount', count: number) {
      const update = count > 0 ? { $set: { [field]: count } } : { $unset: { [field]: '' } };
      await noteables.updateOne({ _id: noteableId }, update);
    },

    async countWhere(filter: Record<string, unknown>): Promise<number> {
      return noteables.countDocuments(await narrowed(filter));
    },

    /** A milestone copy, through the in-process cache (milestone-cache.ts). */
    async milestone(id: number): Promise<MilestoneDoc | null> {
      return milestoneCache.one(id);
    },

    async milestones(ids: number[]): Promise<MilestoneDoc[]> {
      return ids.length > 0 ? milestoneCache.many(ids) : [];
    },

    /** For app.ts to share with the other replicas and the writers of the copies. */
    milestoneCache,

    /** Usernames by id from the user projection (users it has not seen are absent). */
    async usernames(ids: number[]): Promise<Map<number, string>> {
      const known = await models.users.find({ _id: { $in: ids } }).lean();
      return new Map<number, string>(known.map((u) => [u._id, u.username]));
    },

    async incidentLink(alertId: string): Promise<IncidentLinkDoc | null> {
      return models.incidents.findById(alertId).lean<IncidentLinkDoc>();
    },

    /** Reserves the alert's incident issue; the link already stored wins a race (keyed by alert id). */
    async reserveIncidentLink(link: IncidentLinkDoc): Promise<IncidentLinkDoc | null> {
      try {
        await models.incidents.create(link);
        return link;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        return models.incidents.findById(link._id).lean<IncidentLinkDoc>();
      }
    },
  };
}

export type NoteablesStore = ReturnType<typeof createNoteablesStore>;
