import type { z } from 'zod';
import { ITERATION_STATES } from '@gl/contracts';
import type {
  BoardEntity,
  BoardListEntity,
  IterationEntity,
  LabelEntity,
  MilestoneEntity,
  NamespaceContext,
  UserSummary,
  labelBasicEntity,
} from '@gl/contracts';
import type { BoardDoc, LabelDoc, MilestoneDoc, UserDoc } from './boards.models';
import { userSummary } from '@gl/service-kit';
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

export function presentLabelBasic(label: LabelDoc): LabelBasic {
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
 * The web address of the iteration's group: the reader's group or one of its ancestors is named by the
 * request's context (its current path); a descendant by the path it had when the iteration was made.
 */
function iterationGroupPath(iteration: SequencedIteration, group: NamespaceContext): string {
  const segments = group.fullPath.split('/');
  const chain = [...group.ancestorGroupIds, group.id];
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
    web_url: `${pc.externalUrl}/groups/${iterationGroupPath(iteration, pc.group)}/-/iterations/${iteration._id}`,
  };
}

export function presentUser(user: UserDoc, externalUrl: string): UserSummary {
  return userSummary({ ...user, id: user._id }, externalUrl);
}

/** Everything a board refers to, fetched once per response. */
export interface Referenced {
  labels: Map<number, LabelDoc>;
  milestones: Map<number, MilestoneDoc>;
  iterations: Map<number, SequencedIteration>;
  users: Map<number, UserDoc>;
}

export interface PresentContext {
  group: NamespaceContext;
  externalUrl: string;
}

export function presentList(
  item: BoardDoc['lists'][number],
  position: number,
  refs: Referenced,
  pc: PresentContext,
): BoardListEntity {
  const label = item.kind === 'label' ? refs.labels.get(item.targetId) : undefined;
  const out: BoardListEntity = { id: item.id, label: label ? presentLabelBasic(label) : null, position };
  if (item.kind === 'milestone') {
    const milestone = refs.milestones.get(item.targetId);
    if (milestone) out.milestone = presentMilestone(milestone, pc.group.webUrl);
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
): BoardEntity['milestone'] {
  if (board.milestoneId === null) return null;
  const predefined = PREDEFINED_MILESTONES.get(board.milestoneId);
  if (predefined !== undefined) return { title: predefined };
  const milestone = refs.milestones.get(board.milestoneId);
  if (!milestone) return null;
  return fullMilestone
    ? presentMilestone(milestone, pc.group.webUrl)
    : { id: milestone._id, title: milestone.title };
}

/** Board entity (lib/api/entities/board.rb with ee/lib/ee/api/entities/board.rb). */
export function presentBoard(
  board: BoardDoc,
  refs: Referenced,
  pc: PresentContext,
  fullMilestone: boolean,
): BoardEntity {
  const assignee = board.assigneeId === null ? undefined : refs.users.get(board.assigneeId);
  return {
    id: board._id,
    name: board.name,
    hide_backlog_list: board.hideBacklogList,
    hide_closed_list: board.hideClosedList,
    project: null,
    lists: board.lists.map((item, i) => presentList(item, i, refs, pc)),
    group: { id: pc.group.id, name: pc.group.name, web_url: pc.group.webUrl },
    milestone: presentBoardMilestone(board, refs, pc, fullMilestone),
    assignee: assignee ? presentUser(assignee, pc.externalUrl) : null,
    labels: board.labelIds.flatMap((id) => {
      const label = refs.labels.get(id);
      return label ? [presentLabelBasic(label)] : [];
    }),
    weight: board.weight,
  };
}
