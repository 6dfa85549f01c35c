import type { NamespaceContext } from '@gl/contracts';
import { boardGroups } from './boards.access';
import type { LabelDoc, MilestoneDoc } from '../boards.models';
import { projectGroup } from '../labels/project-labels.access';
import type { ProjectLabelsStore } from '../labels/project-labels.store';
import type { LabelsStore } from '../labels/labels.store';
import type { ProjectMilestoneDoc } from '../milestones/project-milestones.model';
import type { ProjectMilestonesStore } from '../milestones/project-milestones.store';
import type { MilestonesStore } from '../milestones/milestones.store';

/** What a board shows of a label, group or project label alike (Entities::LabelBasic). */
export type BoardLabel = Pick<LabelDoc, '_id' | 'name' | 'color' | 'description'>;

/** A milestone a board shows: a group's, or a project's (`projectId`). */
export type BoardMilestone = MilestoneDoc | ProjectMilestoneDoc;

export function isProjectMilestone(milestone: BoardMilestone): milestone is ProjectMilestoneDoc {
  return 'projectId' in milestone;
}

export interface BoardParentStores {
  labels: LabelsStore;
  milestones: MilestonesStore;
  projectLabels: ProjectLabelsStore;
  projectMilestones: ProjectMilestonesStore;
}

/**
 * The labels and milestones of a board's parent (`board_parent` in lib/api/boards_responses.rb): a group
 * board uses its groups' ones, a project board the project's own and its groups' ones
 * (Labels::AvailableLabelsService, MilestonesFinder with the project and its ancestor groups).
 */
export function createBoardParents(stores: BoardParentStores) {
  const { labels, milestones, projectLabels, projectMilestones } = stores;

  async function labelUsable(ns: NamespaceContext, id: number): Promise<boolean> {
    if (ns.kind === 'project' && (await projectLabels.ownById(ns.id, id))) return true;
    return labels.existsIn(id, boardGroups(ns));
  }

  async function milestoneUsable(ns: NamespaceContext, id: number): Promise<boolean> {
    if (ns.kind === 'project' && (await projectMilestones.find(ns.id, id))) return true;
    return milestones.existsIn(id, boardGroups(ns));
  }

  /**
   * Labels::AvailableLabelsService#find_or_create_by_titles: each title found among the parent's labels
   * (a project's own first, then its groups'), else created in the parent with `color`; ids in the order
   * given, once each.
   */
  async function findOrCreateLabels(ns: NamespaceContext, names: string[], color: string): Promise<number[]> {
    const groups = boardGroups(ns);
    if (ns.kind === 'group') return labels.findOrCreateByNames(ns.id, groups, names, color);
    const ids: number[] = [];
    for (const name of names) {
      const found =
        (await projectLabels.ownByName(ns.id, name)) ?? (await projectLabels.groupByName(groups, name));
      let id = found?._id;
      if (id === undefined) {
        const groupId = projectGroup(ns)?.id ?? null;
        const created = await projectLabels.create({
          projectId: ns.id,
          groupId,
          name,
          color,
          description: null,
          priority: null,
        });
        // Someone else created it meanwhile: theirs is the one.
        id = created === 'taken' ? (await projectLabels.ownByName(ns.id, name))?._id : created._id;
      }
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /** Labels by id, group and project labels alike (their ids come from one counter). */
  async function labelsByIds(ids: number[]): Promise<BoardLabel[]> {
    if (ids.length === 0) return [];
    const [ofGroups, ofProjects] = await Promise.all([labels.byIds(ids), projectLabels.byIds(ids)]);
    return [...ofGroups, ...ofProjects];
  }

  /** Milestones by id, group and project milestones alike (their ids come from one counter). */
  async function milestonesByIds(ids: number[]): Promise<BoardMilestone[]> {
    if (ids.length === 0) return [];
    const [ofGroups, ofProjects] = await Promise.all([milestones.byIds(ids), projectMilestones.byIds(ids)]);
    return [...ofGroups, ...ofProjects];
  }

  return { labelUsable, milestoneUsable, findOrCreateLabels, labelsByIds, milestonesByIds };
}
