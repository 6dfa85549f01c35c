import type { z } from 'zod';
import type { createProjectLabelBody, NamespaceContext, updateProjectLabelBody } from '@gl/contracts';
import { ConflictError, HttpError, ModelError, NotFoundError, type PageRequest } from '@gl/service-kit';
import type { LabelDoc, ListKind } from '../boards.models';
import type { LabelSubscriptions } from './label-subscriptions';
import { labelChanges, validateLabel } from './labels.service';
import type { LabelsStore } from './labels.store';
import { projectGroup, projectGroups } from './project-labels.access';
import type { ProjectLabelDoc } from './project-labels.model';
import type { AvailableLabel, ProjectLabelChanges, ProjectLabelsStore } from './project-labels.store';

export type { AvailableLabel, ProjectLabelDoc };

/** What the boards do when their labels go (BoardsService): lists removed, or moved to a promoted label. */
export interface BoardTargets {
  forgetTarget(kind: ListKind, targetId: number): Promise<void>;
  retargetLabels(fromIds: number[], toId: number): Promise<void>;
}

const notFound = (): NotFoundError => new NotFoundError('Label');
const promotionFailed = (): HttpError =>
  new HttpError(400, { message: 'Failed to promote project label to group label' });

/**
 * Project labels (lib/api/labels.rb with lib/api/helpers/label_helpers.rb; Labels::CreateService,
 * UpdateService, PromoteService). Titles are unique per project; a project label may share its title with
 * a group label only when the group label came later (creation refuses any title the project sees).
 */
export function createProjectLabelsService(
  labels: ProjectLabelsStore,
  groupLabels: LabelsStore,
  subscriptions: LabelSubscriptions,
  boards?: BoardTargets,
) {
  /** The labels the project sees, by title: its own, and unless `own`, its groups' (LabelsFinder). */
  function page(ns: NamespaceContext, own: boolean, search: string | undefined, page: PageRequest) {
    return labels.page(ns.id, own ? [] : projectGroups(ns), search, page);
  }

  /**
   * find_label: `find_by_id(id_or_title) || find_by_title(id_or_title)` among the labels the project sees
   * (its own first when two share a title); `own` keeps to the project's labels (include_ancestor_groups
   * false, as updates, deletions and promotions ask).
   */
  async function find(ns: NamespaceContext, key: string, own = false): Promise<AvailableLabel> {
    const groups = own ? [] : projectGroups(ns);
    if (/^\d+$/.test(key)) {
      const id = Number(key);
      const mine = await labels.ownById(ns.id, id);
      if (mine) return { project: true, doc: mine };
      const theirs = await labels.groupById(groups, id);
      if (theirs) return { project: false, doc: theirs };
    }
    const mine = await labels.ownByName(ns.id, key);
    if (mine) return { project: true, doc: mine };
    const theirs = await labels.groupByName(groups, key);
    if (theirs) return { project: false, doc: theirs };
    throw notFound();
  }

  async function findOwn(ns: NamespaceContext, key: string): Promise<ProjectLabelDoc> {
    const found = await find(ns, key, true);
    if (!found.project) throw notFound();
    return found.doc;
  }

  /** create_label: 409 when the project sees a label of that title, then Label's validations. */
  async function create(
    ns: NamespaceContext,
    params: z.infer<typeof createProjectLabelBody>,
  ): Promise<ProjectLabelDoc> {
    if (await labels.titleTaken(ns.id, projectGroups(ns), params.name)) {
      throw new ConflictError('Label already exists');
    }
    validateLabel({ color: params.color, title: params.name, description: params.description });
    const group = projectGroup(ns);
    await labels.moveToGroup(ns.id, group?.id ?? null);
    const created = await labels.create({
      projectId: ns.id,
      groupId: group?.id ?? null,
      name: params.name,
      color: params.color,
      description: params.description ?? null,
      priority: params.priority ?? null,
    });
    if (created === 'taken') throw new ConflictError('Label already exists');
    return created;
  }

  /**
   * update_label on one of the project's own labels: Label's validations, ProjectLabel's
   * title_must_not_exist_at_group_level for a new title, then the priority (null removes it).
   */
  async function update(
    ns: NamespaceContext,
    params: z.infer<typeof updateProjectLabelBody>,
  ): Promise<ProjectLabelDoc> {
    const label = await findOwn(ns, params.label_id);
    const changes: ProjectLabelChanges = labelChanges(params);
    const group = projectGroup(ns);
    if (changes.name !== undefined && changes.name !== label.name && group) {
      if (await labels.groupByName([group.id], changes.name)) {
        throw ModelError.fields({
          title: [`already exists at group level for ${group.name}. Please choose another one.`],
        });
      }
    }
    await labels.moveToGroup(ns.id, group?.id ?? null);
    const updated = await labels.update(label._id, changes);
    if (updated === 'taken') throw ModelError.fields({ title: ['has already been taken'] });
    if (!updated) throw notFound();
    return updated;
  }

  /** Labels::DestroyService: the label and its subscriptions. */
  async function remove(ns: NamespaceContext, key: string): Promise<void> {
    const label = await findOwn(ns, key);
    await labels.remove([label._id]);
    await subscriptions.removeOf(label._id);
    // Its lists go from the project's boards, and it from their scopes (Label has_many :lists, dependent).
    await boards?.forgetTarget('label', label._id);
  }

  /**
   * Labels::PromoteService: the project's group gets a label of this title (the group's own when it has
   * one, else a copy of title, description and color), and every label of that title among the group's
   * projects is merged into it (subscriptions move, the project labels go). Issues hold label titles, so
   * they keep theirs; the project boards' lists of the merged labels become lists of the group's label.
   */
  async function promote(ns: NamespaceContext, key: string): Promise<LabelDoc> {
    const group = projectGroup(ns);
    if (!group) throw promotionFailed();
    const label = await findOwn(ns, key);
    await labels.moveToGroup(ns.id, group.id);
    const target = await groupLabelFor(group.id, label);
    const merged = await labels.idsInGroupProjects(group.id, label.name);
    await subscriptions.moveTo(merged, target._id);
    await boards?.retargetLabels(merged, target._id);
    await labels.remove(merged, target._id);
    return target;
  }

  async function groupLabelFor(groupId: number, label: ProjectLabelDoc): Promise<LabelDoc> {
    const copy = { color: label.color, description: label.description };
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await groupLabels.findByName(groupId, label.name);
      if (existing) {
        const updated = await groupLabels.update(existing._id, copy);
        if (updated && updated !== 'taken') return updated;
        continue;
      }
      const created = await groupLabels.create({ groupId, name: label.name, ...copy, priority: null });
      if (created !== 'taken') return created;
    }
    throw promotionFailed();
  }

  return { page, find, create, update, remove, promote };
}

export type ProjectLabelsService = ReturnType<typeof createProjectLabelsService>;
