import type { BoardListRef } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { FinderQuery } from '../lists/issuables.finder';
import type { BoardCopyDoc, BoardListCopy } from './board-projection';
import { withAssignee, withLabel, withoutAssignee, withoutLabel } from '../noteables/word-filters';

/**
 * What a board list selects, after Boards::Issues::ListService (app/services/boards/issues/list_service.rb
 * and its EE module): the board's scope (milestone, labels, assignee, weight) and the list's criterion, as
 * the issue finder's query plus the conditions the finder has no parameter for (ids of milestones and
 * users the lists stand for). Open lists hold open issues, the closed list closed ones.
 */
export type Column = { kind: 'backlog' } | { kind: 'closed' } | { kind: 'list'; list: BoardListCopy };

type Filter = Record<string, unknown>;

/** The list a reference names on this board, or null (404 List Not Found). */
export function columnOf(board: BoardCopyDoc, ref: BoardListRef): Column | null {
  if (ref === 'backlog') return { kind: 'backlog' };
  if (ref === 'closed') return { kind: 'closed' };
  const list = board.lists.find((l) => l.id === ref);
  return list ? { kind: 'list', list } : null;
}

/** GitLab's predefined milestone ids (Milestone::None, Any, Upcoming, Started) as the finder's wildcards. */
const MILESTONE_WILDCARD: Record<number, 'None' | 'Any' | 'Upcoming' | 'Started'> = {
  0: 'None',
  [-1]: 'Any',
  [-2]: 'Upcoming',
  [-3]: 'Started',
};

/** The board's lists of one kind. */
const listsOf = (board: BoardCopyDoc, kind: BoardListCopy['kind']) =>
  board.lists.filter((l) => l.kind === kind);

/** Titles of the board's label lists (Label.on_board): what the backlog and a move to closed exclude. */
export function boardListLabels(board: BoardCopyDoc): string[] {
  return listsOf(board, 'label').flatMap((l) => (l.labelTitle === null ? [] : [l.labelTitle]));
}

/**
 * The finder query and extra conditions of one list of one board. Labels (the board's and the list's,
 * all required; the backlog's, all excluded) are extra conditions on `labelKeys`, for the column index.
 */
export function columnQuery(board: BoardCopyDoc, column: Column): { query: FinderQuery; extra: Filter[] } {
  // EE::Boards::Issues::ListService#filter_params: the board's scope.
  const extra: Filter[] = board.labels.map(withLabel);
  const query: FinderQuery = { state: column.kind === 'closed' ? 'closed' : 'opened' };
  if (board.milestoneId !== null) {
    const wildcard = MILESTONE_WILDCARD[board.milestoneId];
    if (wildcard) query.milestone_id = wildcard;
    else extra.push({ milestoneId: board.milestoneId });
  }
  if (board.assigneeId !== null) extra.push(withAssignee(board.assigneeId));
  // Board weights: nil and -1 any, -2 none (Issue::WEIGHT_NONE), else that weight.
  if (board.weight === -2) query.weight = 'None';
  else if (board.weight !== null && board.weight >= 0) query.weight = board.weight;

  if (column.kind === 'backlog') {
    // without_board_labels, and EE's without_assignees_from_lists / without_milestones_from_lists.
    extra.push(...boardListLabels(board).map(withoutLabel));
    extra.push(...listsOf(board, 'assignee').map((l) => withoutAssignee(l.targetId)));
    const milestones = listsOf(board, 'milestone').map((l) => l.targetId);
    if (milestones.length > 0) extra.push({ milestoneId: { $nin: milestones } });
  } else if (column.kind === 'list') {
    const { list } = column;
    if (list.kind === 'label') {
      // A label list whose label is gone shows nothing.
      if (list.labelTitle === null) extra.push({ _id: { $in: [] } });
      else extra.push(withLabel(list.labelTitle));
    } else if (list.kind === 'milestone') extra.push({ milestoneId: list.targetId });
    else if (list.kind === 'assignee') extra.push(withAssignee(list.targetId));
    // Issues here carry no iteration: an iteration list holds none.
    else extra.push({ _id: { $in: [] } });
  }
  return { query, extra };
}

/** Whether the issue is in the list now (the list's criterion only; the board scope is not asked). */
export function inColumn(board: BoardCopyDoc, column: Column, issue: NoteableDoc): boolean {
  if (column.kind === 'closed') return issue.state === 'closed';
  if (issue.state !== 'opened') return false;
  if (column.kind === 'backlog') {
    const labels = boardListLabels(board);
    const users = listsOf(board, 'assignee').map((l) => l.targetId);
    const milestones = listsOf(board, 'milestone').map((l) => l.targetId);
    return (
      !issue.labels.some((l) => labels.includes(l)) &&
      !issue.assigneeIds.some((id) => users.includes(id)) &&
      !(issue.milestoneId !== null && milestones.includes(issue.milestoneId))
    );
  }
  const { list } = column;
  if (list.kind === 'label') return list.labelTitle !== null && issue.labels.includes(list.labelTitle);
  if (list.kind === 'milestone') return issue.milestoneId === list.targetId;
  if (list.kind === 'assignee') return issue.assigneeIds.includes(list.targetId);
  return false;
}

/** What a move between two lists changes: IssueUpdate's fields, only those that change. */
export interface MoveChanges {
  labels?: string[];
  milestone_id?: number;
  assignee_ids?: number[];
  state_event?: 'close' | 'reopen';
}

const isMovable = (column: Column): column is Extract<Column, { kind: 'list' }> => column.kind === 'list';

/**
 * Boards::Issues::MoveService#issuable_params with EE's list_movement_args (milestone and assignee
 * lists): a label list adds its label; moving to another label list removes the one moved from, moving to
 * Open or Closed removes every label of the board's lists; to Closed closes, from Closed reopens; a
 * milestone list sets its milestone (and leaving one for Open removes it); an assignee list adds its user
 * (and leaving one for another assignee list or Open removes the one left).
 */
export function moveChanges(board: BoardCopyDoc, from: Column, to: Column, issue: NoteableDoc): MoveChanges {
  const changes: MoveChanges = {};
  let labels = [...issue.labels];
  if (!isMovable(to)) {
    const boardLabels = boardListLabels(board);
    labels = labels.filter((l) => !boardLabels.includes(l));
  } else if (isMovable(from) && from.list.kind === 'label' && to.list.kind === 'label') {
    labels = labels.filter((l) => l !== from.list.labelTitle);
  }
  if (isMovable(to) && to.list.kind === 'label' && to.list.labelTitle !== null) {
    if (!labels.includes(to.list.labelTitle)) labels.push(to.list.labelTitle);
  }
  if (labels.length !== issue.labels.length || labels.some((l, i) => l !== issue.labels[i])) {
    changes.labels = labels;
  }

  if (to.kind === 'closed' && issue.state !== 'closed') changes.state_event = 'close';
  if (from.kind === 'closed' && to.kind !== 'closed' && issue.state === 'closed')
    changes.state_event = 'reopen';

  if (isMovable(to) && to.list.kind === 'milestone') {
    if (issue.milestoneId !== to.list.targetId) changes.milestone_id = to.list.targetId;
  } else if (to.kind === 'backlog' && isMovable(from) && from.list.kind === 'milestone') {
    if (issue.milestoneId !== null) changes.milestone_id = 0;
  }

  let assignees = [...issue.assigneeIds];
  if (isMovable(from) && from.list.kind === 'assignee') {
    const leaving = (isMovable(to) && to.list.kind === 'assignee') || to.kind === 'backlog';
    if (leaving) assignees = assignees.filter((id) => id !== from.list.targetId);
  }
  if (isMovable(to) && to.list.kind === 'assignee' && !assignees.includes(to.list.targetId)) {
    assignees.push(to.list.targetId);
  }
  if (
    assignees.length !== issue.assigneeIds.length ||
    assignees.some((id, i) => id !== issue.assigneeIds[i])
  ) {
    changes.assignee_ids = assignees;
  }
  return changes;
}
