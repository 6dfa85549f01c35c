import type { FilterQuery, Model } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import {
  findPage,
  insertUnique,
  pushEvents,
  withEvents,
  type Counters,
  type Outbox,
  type PageRequest,
} from '@gl/service-kit';
import type { MilestoneDoc } from '../boards.models';
import { findByIds } from '../common/by-ids';
import { containsText } from '../common/text-search';
import { updateOrTaken } from '../common/unique-writes';
import { NO_DUE_DATE, type ProjectMilestoneDoc } from './project-milestones.model';

/** MilestonesFinder's filters (lib/api/milestone_responses.rb `list_params`). */
export interface ProjectMilestoneFilter {
  state?: 'active' | 'closed';
  title?: string;
  /** Part of the title or of the description, any case (Milestone.search). */
  search?: string;
  iids?: number[];
  updatedBefore?: Date;
  updatedAfter?: Date;
}

export type ProjectMilestoneChanges = Partial<
  Pick<
    ProjectMilestoneDoc,
    'title' | 'description' | 'dueDate' | 'startDate' | 'state' | 'updatedAt' | 'revision' | 'groupId'
  >
>;

/** A milestone a project lists: one of its own, or one of its groups' (`project` false). */
export type AvailableMilestone =
  { project: true; doc: ProjectMilestoneDoc } | { project: false; doc: MilestoneDoc };

const OWN_ORDER = { dueOrder: 1, title: 1, _id: 1 } as const;

/** GitLab's order: due date ascending with the undated last, then title (then id, for a stable page). */
function byDue(a: AvailableMilestone, b: AvailableMilestone): number {
  const due = (m: AvailableMilestone) => m.doc.dueDate ?? NO_DUE_DATE;
  if (due(a) !== due(b)) return due(a) < due(b) ? -1 : 1;
  if (a.doc.title !== b.doc.title) return a.doc.title < b.doc.title ? -1 : 1;
  return a.doc._id - b.doc._id;
}

function filterOf(criteria: ProjectMilestoneFilter): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (criteria.state) filter.state = criteria.state;
  if (criteria.title !== undefined) filter.title = criteria.title;
  if (criteria.iids) filter.iid = { $in: criteria.iids };
  if (criteria.search) {
    filter.$or = [{ title: containsText(criteria.search) }, { description: containsText(criteria.search) }];
  }
  const updated: Record<string, Date> = {};
  if (criteria.updatedBefore) updated.$lte = criteria.updatedBefore;
  if (criteria.updatedAfter) updated.$gte = criteria.updatedAfter;
  if (Object.keys(updated).length) filter.updatedAt = updated;
  return filter;
}

/** Project milestones, and the reads of group milestones a project makes (MilestonesFinder). */
export function createProjectMilestonesStore(
  milestones: Model<ProjectMilestoneDoc>,
  groupMilestones: Model<MilestoneDoc>,
  counters: Counters,
  outbox: Outbox,
) {
  /**
   * The project's milestones, and its groups' when `groupIds` name some, one page. Two collections are
   * merged: each is read up to the page's end (a project sees at most a few hundred milestones).
   */
  async function page(
    projectId: number,
    groupIds: number[],
    criteria: ProjectMilestoneFilter,
    page: PageRequest,
  ): Promise<{ total: number; items: AvailableMilestone[] }> {
    const own: FilterQuery<ProjectMilestoneDoc> = { projectId, ...filterOf(criteria) };
    if (groupIds.length === 0) {
      const { total, docs } = await findPage(milestones, own, OWN_ORDER, page);
      return { total, items: docs.map((doc) => ({ project: true, doc })) };
    }
    const theirs: FilterQuery<MilestoneDoc> = { groupId: { $in: groupIds }, ...filterOf(criteria) };
    const [ownCount, groupCount] = await Promise.all([
      milestones.countDocuments(own),
      groupMilestones.countDocuments(theirs),
    ]);
    const total = ownCount + groupCount;
    if (page.skip >= total) return { total, items: [] };
    const upTo = page.skip + page.perPage;
    const [owned, dated, undated] = await Promise.all([
      milestones.find(own).sort(OWN_ORDER).limit(upTo).lean<ProjectMilestoneDoc[]>(),
      groupMilestones
        .find({ ...theirs, dueDate: { $ne: null } })
        .sort({ dueDate: 1, title: 1, _id: 1 })
        .limit(upTo)
        .lean<MilestoneDoc[]>(),
      groupMilestones
        .find({ ...theirs, dueDate: null })
        .sort({ title: 1, _id: 1 })
        .limit(upTo)
        .lean<MilestoneDoc[]>(),
    ]);
    const merged: AvailableMilestone[] = [
      ...owned.map((doc) => ({ project: true as const, doc })),
      ...[...dated, ...undated].map((doc) => ({ project: false as const, doc })),
    ].sort(byDue);
    return { total, items: merged.slice(page.skip, upTo) };
  }

  async function find(projectId: number, id: number): Promise<ProjectMilestoneDoc | null> {
    return milestones.findOne({ _id: id, projectId }).lean<ProjectMilestoneDoc>();
  }

  const byIds = (ids: number[]) => findByIds(milestones, ids);

  /** Milestone#uniqueness_of_title for a project milestone: the project's, its group's and ancestors'. */
  async function titleTaken(projectId: number, groupIds: number[], title: string): Promise<boolean> {
    if ((await milestones.exists({ projectId, title })) !== null) return true;
    return (
      groupIds.length > 0 && (await groupMilestones.exists({ groupId: { $in: groupIds }, title })) !== null
    );
  }

  /** A new milestone's id (shared with group milestones) and its iid within the project. */
  async function allocate(projectId: number): Promise<Pick<ProjectMilestoneDoc, '_id' | 'iid'>> {
    return {
      _id: await counters.next('milestone'),
      iid: await counters.next(`project-milestone-iid:${projectId}`),
    };
  }

  /** Stores the milestone with its events; null when the project has a milestone of that title. */
  async function insert(
    input: Omit<ProjectMilestoneDoc, 'dueOrder'>,
    events: EventEnvelope[],
  ): Promise<ProjectMilestoneDoc | null> {
    const doc: ProjectMilestoneDoc = { ...input, dueOrder: input.dueDate ?? NO_DUE_DATE };
    return (await insertUnique(milestones, withEvents(doc, events))) ? doc : null;
  }

  /**
   * The milestone after the change, null when it is gone or no longer at `revision` (another write came
   * first: the caller reads it again), 'taken' when the new title is another's.
   */
  async function update(
    id: number,
    revision: number,
    changes: ProjectMilestoneChanges,
    events: EventEnvelope[],
  ): Promise<ProjectMilestoneDoc | null | 'taken'> {
    const set: Partial<ProjectMilestoneDoc> = { ...changes };
    if (changes.dueDate !== undefined) set.dueOrder = changes.dueDate ?? NO_DUE_DATE;
    return updateOrTaken(milestones, { _id: id, revision }, pushEvents({ $set: set }, events));
  }

  /**
   * Deletes a milestone with the events its removal publishes, and those it still carries (relayed once
   * the delete succeeded: outbox.deleteWithEvents).
   */
  async function remove(id: number, events: EventEnvelope[]): Promise<void> {
    await outbox.deleteWithEvents(milestones, id, events);
  }

  /** The milestones of this title among the group's projects' milestones. */
  async function inGroupProjects(groupId: number, title: string): Promise<ProjectMilestoneDoc[]> {
    return milestones.find({ groupId, title }).lean<ProjectMilestoneDoc[]>();
  }

  /**
   * Records the project's current group on its milestones (a transferred project's milestones follow it
   * on its next milestone write), so a promotion finds the milestones of the group's projects by group.
   */
  async function moveToGroup(projectId: number, groupId: number | null): Promise<void> {
    await milestones.updateMany({ projectId, groupId: { $ne: groupId } }, { $set: { groupId } });
  }

  // modelName: the model whose documents carry the milestones' events (the outbox relay's targeted pass).
  return {
    page,
    find,
    byIds,
    titleTaken,
    allocate,
    insert,
    update,
    remove,
    inGroupProjects,
    moveToGroup,
    modelName: milestones.modelName,
  };
}

export type ProjectMilestonesStore = ReturnType<typeof createProjectMilestonesStore>;
