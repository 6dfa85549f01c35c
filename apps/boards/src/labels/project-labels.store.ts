import type { FilterQuery, Model } from 'mongoose';
import { findPage, type Counters, type Outbox, type PageRequest } from '@gl/service-kit';
import type { LabelDoc } from '../boards.models';
import { findByIds } from '../common/by-ids';
import { containsText } from '../common/text-search';
import { labelWrites } from './label-definitions';
import type { ProjectLabelDoc } from './project-labels.model';

export type ProjectLabelInput = Omit<ProjectLabelDoc, '_id' | 'createdAt'>;
export type ProjectLabelChanges = Partial<
  Pick<ProjectLabelDoc, 'name' | 'color' | 'description' | 'priority'>
>;

/** A label a project can use: one of its own, or one of its groups' (`project` false). */
export type AvailableLabel = { project: true; doc: ProjectLabelDoc } | { project: false; doc: LabelDoc };

const BY_TITLE = { name: 1, _id: 1 } as const;

function byTitle(a: AvailableLabel, b: AvailableLabel): number {
  if (a.doc.name !== b.doc.name) return a.doc.name < b.doc.name ? -1 : 1;
  return a.doc._id - b.doc._id;
}

const own = (doc: ProjectLabelDoc): AvailableLabel => ({ project: true, doc });
const ofGroup = (doc: LabelDoc): AvailableLabel => ({ project: false, doc });

/** Project labels, and the reads of group labels a project makes (LabelsFinder with a project_id). */
export function createProjectLabelsStore(
  projectLabels: Model<ProjectLabelDoc>,
  groupLabels: Model<LabelDoc>,
  counters: Counters,
  outbox: Outbox,
) {
  const writes = labelWrites(projectLabels, outbox, (label) => ({ projectId: label.projectId }));
  // Label.search (LabelsFinder's `search`): part of the title or of the description, any case.
  const matching = (search: string | undefined) =>
    search ? { $or: [{ name: containsText(search) }, { description: containsText(search) }] } : {};

  function ownFilter(projectId: number, search: string | undefined): FilterQuery<ProjectLabelDoc> {
    return { projectId, ...matching(search) };
  }

  function groupFilter(groupIds: number[], search: string | undefined): FilterQuery<LabelDoc> {
    return { groupId: { $in: groupIds }, ...matching(search) };
  }

  /**
   * The project's labels and its groups' ones by title, one page. Two collections are merged: each is read
   * up to the page's end (a project sees at most a few hundred labels), past the total nothing is read.
   */
  async function page(
    projectId: number,
    groupIds: number[],
    search: string | undefined,
    page: PageRequest,
  ): Promise<{ total: number; labels: AvailableLabel[] }> {
    if (groupIds.length === 0) {
      const { total, docs } = await findPage(projectLabels, ownFilter(projectId, search), BY_TITLE, page);
      return { total, labels: docs.map(own) };
    }
    const [ownCount, groupCount] = await Promise.all([
      projectLabels.countDocuments(ownFilter(projectId, search)),
      groupLabels.countDocuments(groupFilter(groupIds, search)),
    ]);
    const total = ownCount + groupCount;
    if (page.skip >= total) return { total, labels: [] };
    const upTo = page.skip + page.perPage;
    const [owned, grouped] = await Promise.all([
      projectLabels.find(ownFilter(projectId, search)).sort(BY_TITLE).limit(upTo).lean<ProjectLabelDoc[]>(),
      groupLabels.find(groupFilter(groupIds, search)).sort(BY_TITLE).limit(upTo).lean<LabelDoc[]>(),
    ]);
    const merged = [...owned.map(own), ...grouped.map(ofGroup)].sort(byTitle);
    return { total, labels: merged.slice(page.skip, upTo) };
  }

  async function ownById(projectId: number, id: number): Promise<ProjectLabelDoc | null> {
    return projectLabels.findOne({ _id: id, projectId }).lean<ProjectLabelDoc>();
  }

  async function ownByName(projectId: number, name: string): Promise<ProjectLabelDoc | null> {
    return projectLabels.findOne({ projectId, name }).lean<ProjectLabelDoc>();
  }

  async function groupById(groupIds: number[], id: number): Promise<LabelDoc | null> {
    return groupIds.length
      ? groupLabels.findOne({ _id: id, groupId: { $in: groupIds } }).lean<LabelDoc>()
      : null;
  }

  async function groupByName(groupIds: number[], name: string): Promise<LabelDoc | null> {
    return groupIds.length
      ? groupLabels.findOne({ groupId: { $in: groupIds }, name }).lean<LabelDoc>()
      : null;
  }

  /** Whether the project or one of the groups has a label of this title. */
  async function titleTaken(projectId: number, groupIds: number[], name: string): Promise<boolean> {
    if ((await projectLabels.exists({ projectId, name })) !== null) return true;
    return groupIds.length > 0 && (await groupLabels.exists({ groupId: { $in: groupIds }, name })) !== null;
  }

  /** The new label, or 'taken' when the project already has one of that title. */
  async function create(input: ProjectLabelInput): Promise<ProjectLabelDoc | 'taken'> {
    const doc: ProjectLabelDoc = { _id: await counters.next('label'), ...input, createdAt: new Date() };
    return writes.insert(doc);
  }

  /** The label after the change, null when it is gone, 'taken' when the new title is another label's. */
  async function update(id: number, changes: ProjectLabelChanges): Promise<ProjectLabelDoc | null | 'taken'> {
    return writes.revise(id, changes);
  }

  /** Deletes the labels; `mergedInto` names the group label a promotion merged them into. */
  async function remove(ids: number[], mergedInto: number | null = null): Promise<void> {
    for (const id of ids) await writes.remove(id, mergedInto);
  }

  /**
   * Records the project's current group on its labels (a transferred project's labels follow it on its
   * next label write), so a promotion finds the labels of the group's projects by group.
   */
  async function moveToGroup(projectId: number, groupId: number | null): Promise<void> {
    await projectLabels.updateMany({ projectId, groupId: { $ne: groupId } }, { $set: { groupId } });
  }

  /** Ids of the labels of this title among the group's projects' labels. */
  async function idsInGroupProjects(groupId: number, name: string): Promise<number[]> {
    const found = await projectLabels.find({ groupId, name }).select({ _id: 1 }).lean<{ _id: number }[]>();
    return found.map((l) => l._id);
  }

  const byIds = (ids: number[]) => findByIds(projectLabels, ids);

  return {
    page,
    byIds,
    ownById,
    ownByName,
    groupById,
    groupByName,
    titleTaken,
    create,
    update,
    remove,
    moveToGroup,
    idsInGroupProjects,
  };
}

export type ProjectLabelsStore = ReturnType<typeof createProjectLabelsStore>;
