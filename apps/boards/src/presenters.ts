import type { z } from 'zod';
import { ITERATION_STATES } from '@gl/contracts';
import type {
  BoardEntity,
  BoardListEntity,
  BoardProjectEntity,
  IterationEntity,
  LabelEntity,
  MilestoneEntity,
  NamespaceContext,
  ProjectBoardEntity,
  ProjectBoardListEntity,
  ProjectMilestoneEntity,
  UserSummary,
  labelBasicEntity,
} from '@gl/contracts';
import type { BoardDoc, LabelDoc, MilestoneDoc, UserDoc } from './boards.models';
import { userSummary } from '@gl/service-kit';
import { isProjectMilestone, type BoardLabel, type BoardMilestone } from './board-parents';
import type { ProjectMilestoneDoc } from './milestones/project-milestones.model';
import { iterationState, today, type SequencedIteration } from './iterations.service';

type LabelBasic = z.infer<typeof labelBasicEntity>;

/** LabelsHelper#text_color_for_bg: dark text on light backgrounds, white on dark ones. */
export function textColorFor(color: string): string {
  const hex = color.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  const luminance = (r! * 0.299 + g! * 0.587 + b! * 0.114) / 255;
  return luminance > 0.5 ? '#1F1E24' : '#FFFFFF';
}

/**
 * Entities::Label (Entities::ProjectLabel with `is_project_label`); `subscribed`: whether the caller
 * subscribed to it (label-subscriptions.ts).
 */
export function presentLabel(
  label: Pick<LabelDoc, '_id' | 'name' | 'description' | 'color' | 'priority'>,
  subscribed = false,
  isProjectLabel = false,
): LabelEntity {
  return {
    id: label._id,
    name: label.name,
    description: label.description,
    description_html: label.description ?? '',
    text_color: textColorFor(label.color),
    color: label.color,
    subscribed,
    priority: label.priority,
    is_project_label: isProjectLabel,
    archived: false,
  };
}

export function presentLabelBasic(label: BoardLabel): LabelBasic {
  return { id: label._id, name: label.name, color: label.color, description: label.description };
}

/** Entities::Milestone after its parent's id, the same for group and project milestones. */
export function milestoneFields(
  milestone: Pick<
    MilestoneDoc,
    'iid' | 'title' | 'description' | 'state' | 'createdAt' | 'updatedAt' | 'dueDate' | 'startDate'
  >,
  parentWebUrl: string,
) {
  return {
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt.toISOString(),
    updated_at: milestone.updatedAt.toISOString(),
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    web_url: `${parentWebUrl}/-/milestones/${milestone.iid}`,
  };
}

export function presentMilestone(milestone: MilestoneDoc, groupWebUrl: string): MilestoneEntity {
  return {
    id: milestone._id,
    iid: milestone.iid,
    group_id: milestone.groupId,
    ...milestoneFields(milestone, groupWebUrl),
  };
}

/** Entities::Milestone of a project milestone (`project_id`, the project's web URL). */
export function presentProjectMilestone(
  m: ProjectMilestoneDoc,
  ns: NamespaceContext,
): ProjectMilestoneEntity {
  return { id: m._id, iid: m.iid, project_id: m.projectId, ...milestoneFields(m, ns.webUrl) };
}

/**
 * The web URL of one of a project's groups: the project's namespace path cut at that group's depth (the
 * ancestors are listed root first), after the instance's relative URL root if it has one.
 */
export function projectGroupWebUrl(ns: NamespaceContext, groupId: number): string {
  const depth = ns.ancestorGroupIds.indexOf(groupId) + 1;
  const url = new URL(ns.webUrl);
  const segments = url.pathname.split('/').filter(Boolean);
  const groupsStart = segments.length - 1 - ns.ancestorGroupIds.length;
  const groupPath = [
    ...segments.slice(0, groupsStart),
    'groups',
    ...segments.slice(groupsStart, groupsStart + depth),
  ];
  return `${url.origin}/${groupPath.join('/')}`;
}

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

/**
 * The web address of the iteration's group: the reader's group (or a project's group) or one of its
 * ancestors is named by the request's context (its current path); a descendant by the path it had when
 * the iteration was made.
 */
function iterationGroupPath(iteration: SequencedIteration, parent: NamespaceContext): string {
  const segments = parent.fullPath.split('/');
  if (parent.kind === 'project') segments.pop();
  const chain = parent.kind === 'project' ? parent.ancestorGroupIds : [...parent.ancestorGroupIds, parent.id];
  const index = chain.indexOf(iteration.groupId);
  if (index >= 0 && segments.length === chain.length) return segments.slice(0, index + 1).join('/');
  return iteration.groupFullPath;
}

/** API::Entities::Iteration (ee/lib/api/entities/iteration.rb); `state` is the stored enum's number. */
export function presentIteration(
  iteration: SequencedIteration,
  pc: PresentContext,
  day = today(),
): IterationEntity {
  return {
    id: iteration._id,
    iid: iteration.iid,
    sequence: iteration.sequence,
    group_id: iteration.groupId,
    title: iteration.title,
    description: iteration.description,
    state: ITERATION_STATES[iterationState(iteration, day)],
    created_at: iteration.createdAt.toISOString(),
    updated_at: iteration.updatedAt.toISOString(),
    start_date: iteration.startDate,
    due_date: iteration.dueDate,
    web_url: `${pc.externalUrl}/groups/${iterationGroupPath(iteration, pc.parent)}/-/iterations/${iteration._id}`,
  };
}

export function presentUser(user: UserDoc, externalUrl: string): UserSummary {
  return userSummary({ ...user, id: user._id }, externalUrl);
}

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
    return { ...shown, project: presentBoardProject(parent, pc.externalUrl), group: null };
  }
  // A group board's lists and milestone are its groups' (no project milestones): BoardEntity's shapes.
  const group = { id: parent.id, name: parent.name, web_url: parent.webUrl };
  return { ...shown, project: null, group } as BoardEntity;
}
