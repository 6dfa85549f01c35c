import type { FilterQuery, Model } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import {
  findPage,
  insertUnique,
  pushEvents,
  withEvents,
  type Counters,
  type PageRequest,
} from '@gl/service-kit';
import type { MilestoneDoc } from '../boards.models';
import { findByIds } from '../common/by-ids';
import { containsText } from '../common/text-search';
import { updateOrTaken } from '../common/unique-writes';

export interface MilestoneFilter {
  state?: MilestoneDoc['state'];
  title?: string;
  /** Part of the title, any case. */
  search?: string;
  iids?: number[];
}

export type MilestoneChanges = Partial<
  Pick<MilestoneDoc, 'title' | 'description' | 'dueDate' | 'startDate' | 'state' | 'updatedAt' | 'revision'>
>;

/** Group milestones: queries, and writes that carry their domain events (outbox). */
export function createMilestonesStore(milestones: Model<MilestoneDoc>, counters: Counters) {
  /** Newest first. */
  async function page(
    groupId: number,
    criteria: MilestoneFilter,
    page: PageRequest,
  ): Promise<{ total: number; docs: MilestoneDoc[] }> {
    const filter: FilterQuery<MilestoneDoc> = { groupId };
    if (criteria.state) filter.state = criteria.state;
    if (criteria.title !== undefined) filter.title = criteria.title;
    if (criteria.search) filter.title = containsText(criteria.search);
    if (criteria.iids) filter.iid = { $in: criteria.iids };
    return findPage(milestones, filter, { _id: -1 }, page);
  }

  async function find(groupId: number, id: number): Promise<MilestoneDoc | null> {
    return milestones.findOne({ _id: id, groupId }).lean<MilestoneDoc>();
  }

  async function titleTaken(groupId: number, title: string): Promise<boolean> {
    return (await milestones.exists({ groupId, title })) !== null;
  }

  /** A new milestone's id and its iid within the group. */
  async function allocate(groupId: number): Promise<Pick<MilestoneDoc, '_id' | 'iid'>> {
    return {
      _id: await counters.next('milestone'),
      iid: await counters.next(`milestone-iid:${groupId}`),
    };
  }

  /** Stores the milestone with its events; false when the group has a milestone of that title. */
  function insert(doc: MilestoneDoc, events: EventEnvelope[]): Promise<boolean> {
    return insertUnique(milestones, withEvents(doc, events));
  }

  /**
   * The milestone after the change, null when it is gone or no longer at `revision` (another write came
   * first: the caller reads it again), 'taken' when the new title is another's.
   */
  async function update(
    id: number,
    revision: number | undefined,
    changes: MilestoneChanges,
    events: EventEnvelope[],
  ): Promise<MilestoneDoc | null | 'taken'> {
    // `revision: null` also matches milestones written before revisions existed.
    const at = { _id: id, revision: revision ?? null };
    return updateOrTaken(milestones, at, pushEvents({ $set: changes }, events));
  }

  async function existsIn(id: number, groupIds: number[]): Promise<boolean> {
    return (await milestones.exists({ _id: id, groupId: { $in: groupIds } })) !== null;
  }

  const byIds = (ids: number[]) => findByIds(milestones, ids);

  // modelName: the model whose documents carry the milestones' events (the outbox relay's targeted pass).
  return {
    page,
    find,
    titleTaken,
    allocate,
    insert,
    update,
    existsIn,
    byIds,
    modelName: milestones.modelName,
  };
}

export type MilestonesStore = ReturnType<typeof createMilestonesStore>;
