import type {
  BoardEntity,
  BoardListEntity,
  BoardProjectEntity,
  MilestoneEntity,
  NamespaceContext,
  ProjectBoardEntity,
  ProjectBoardListEntity,
  ProjectMilestoneEntity,
} from '@gl/contracts';
import type { BoardDoc, UserDoc } from '../boards.models';
import type { SequencedIteration } from '../iterations/iterations.service';
import { presentIteration } from '../iterations/iterations.presenter';
import { presentLabelBasic } from '../labels/labels.presenter';
import {
  presentMilestone,
  presentProjectMilestone,
  projectGroupWebUrl,
} from '../milestones/milestones.presenter';
import { presentUser } from '../users/users.presenter';
import { isProjectMilestone, type BoardLabel, type BoardMilestone } from './board-parents';

/**
 * Milestone::Predefined as a board shows them (SpecialBoardFilter): the Timebox constants the Milestone
 * class defines, `No Milestone` 0, `Any Milestone` -1, `Upcoming` -2, `Started` -3.
 */
export const PREDEFINED_MILESTONES: ReadonlyMap<number, string> = new Map([
  [0, 'No Milestone'],
  [-1, 'Any Milestone'],
  [-2, 'Upcoming'],
  [-3, 'Started'],
]);

/** Everything a board refers to, fetched once per response. */
export interface Referenced {
  labels: Map<number, BoardLabel>;
  milestones: Map<number, BoardMilestone>;
  iterations: Map<number, SequencedIteration>;
  users: Map<number, UserDoc>;
}

/** Where a board is shown: its parent (the group or project of the request) and the instance's URL. */
export interface PresentContext {
  parent: NamespaceContext;
  externalUrl: string;
}

/**
 * A milestone in full: a project's with `project_id`; a group's linked to the group board's group, or,
 * on a project board, to that one of the project's groups.
 */
function presentFullMilestone(
  milestone: BoardMilestone,
  pc: PresentContext,
): MilestoneEntity | ProjectMilestoneEntity {
  if (isProjectMilestone(milestone)) return presentProjectMilestone(milestone, pc.parent);
  const url =
    pc.parent.kind === 'project' ? projectGroupWebUrl(pc.parent, milestone.groupId) : pc.parent.webUrl;
  return presentMilestone(milestone, url);
}

export function presentList(
  item: BoardDoc['lists'][number],
  position: number,
  refs: Referenced,
  pc: PresentContext,
): BoardListEntity | ProjectBoardListEntity {
  const label = item.kind === 'label' ? refs.labels.get(item.targetId) : undefined;
  const out: ProjectBoardListEntity = {
    id: item.id,
    label: label ? presentLabelBasic(label) : null,
    position,
  };
  if (item.kind === 'milestone') {
    const milestone = refs.milestones.get(item.targetId);
    if (milestone) out.milestone = presentFullMilestone(milestone, pc);
  }
  if (item.kind === 'iteration') {
    const iteration = refs.iterations.get(item.targetId);
    if (iteration) out.iteration = presentIteration(iteration, pc);
  }
  if (item.kind === 'assignee') {
    const user = refs.users.get(item.targetId);
    if (user) out.assignee = presentUser(user, pc.externalUrl);
  }
  return out;
}

/**
 * The board's milestone (EE Board#milestone and the board entity): a predefined one as SpecialBoardFilter,
 * a real one in full on create/update and as `{id, title}` on list/get (as the spec's examples).
 */
function presentBoardMilestone(
  board: BoardDoc,
  refs: Referenced,
  pc: PresentContext,
  fullMilestone: boolean,
): ProjectBoardEntity['milestone'] {
  if (board.milestoneId === null) return null;
  const predefined = PREDEFINED_MILESTONES.get(board.milestoneId);
  if (predefined !== undefined) return { title: predefined };
  const milestone = refs.milestones.get(board.milestoneId);
  if (!milestone) return null;
  return fullMilestone ? presentFullMilestone(milestone, pc) : { id: milestone._id, title: milestone.title };
}

/** Entities::BasicProjectDetails as a project board shows its project: what the request's context names. */
function presentBoardProject(ns: NamespaceContext, externalUrl: string): BoardProjectEntity {
  return {
    id: ns.id,
    name: ns.name,
    name_with_namespace: ns.fullName,
    path: ns.path,
    path_with_namespace: ns.fullPath,
    ssh_url_to_repo: `git@${new URL(externalUrl).hostname}:${ns.fullPath}.git`,
    http_url_to_repo: `${ns.webUrl}.git`,
    web_url: ns.webUrl,
  };
}

/**
 * Board entity (lib/api/entities/board.rb with ee/lib/ee/api/entities/board.rb): `project` on a project
 * board, `group` on a group board, the other null.
 */
export function presentBoard(
  board: BoardDoc,
  refs: Referenced,
  pc: PresentContext,
  fullMilestone: boolean,
): BoardEntity | ProjectBoardEntity {
  const assignee = board.assigneeId === null ? undefined : refs.users.get(board.assigneeId);
  const { parent } = pc;
  const shown = {
    id: board._id,
    name: board.name,
    hide_backlog_list: board.hideBacklogList,
    hide_closed_list: board.hideClosedList,
    lists: board.lists.map((item, i) => presentList(item, i, refs, pc)),
    milestone: presentBoardMilestone(board, refs, pc, fullMilestone),
    assignee: assignee ? presentUser(assignee, pc.externalUrl) : null,
    labels: board.labelIds.flatMap((id) => {
      const label = refs.labels.get(id);
      return label ? [presentLabelBasic(label)] : [];
    }),
    weight: board.weight,
  };
  if (parent.kind === 'project') {
    return Object.assign(shown, { project: presentBoardProject(parent, pc.externalUrl), group: null });
  }
  // A group board's lists and milestone are its groups' (no project milestones): BoardEntity's shapes.
  const group = { id: parent.id, name: parent.name, web_url: parent.webUrl };
  return Object.assign(shown, { project: null, group }) as BoardEntity;
}
