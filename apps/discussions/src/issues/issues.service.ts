import { DOMAIN_EVENT_TYPES, type UserSummary } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import type { NoteableDoc } from '../noteables/noteable.model';
import {
  changesOf,
  type IssueInput,
  type IssueUpdate,
  type NoteableWrites,
} from '../noteables/noteable-writes';
import type { IssuePositions } from './issue-positions';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

export interface IssuesServiceDeps {
  writes: NoteableWrites;
  positions: Pick<IssuePositions, 'claimAtEnd' | 'moveBetween'>;
}

/** Issues::CreateService and Issues::UpdateService, and an issue's place on boards. */
export function createIssuesService(deps: IssuesServiceDeps) {
  const { writes, positions } = deps;

  async function createIssue(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    input: IssueInput,
    createdAt: Date | null,
    /** Where the issue's board position is compared (issue-positions.ts); it goes after the last. */
    positionScope: string | null = null,
  ): Promise<NoteableDoc> {
    const doc = await writes.draftIssuable('Issue', projectId, author, input, {
      assigneeIds: input.assignee_ids ?? [],
      issueType: input.issue_type ?? 'issue',
      confidential: input.confidential ?? false,
      dueDate: input.due_date ?? null,
      ...(input.weight !== undefined && { weight: input.weight }),
    });
    if (createdAt) Object.assign(doc, { createdAt, updatedAt: createdAt });
    if (positionScope) {
      const position = await positions.claimAtEnd(positionScope, doc._id);
      Object.assign(doc, { positionScope, relativePosition: position });
    }
    return writes.insertIssuable(origin, doc, EVENTS.issueOpened);
  }

  function updateIssue(origin: EventOrigin, doc: NoteableDoc, actor: UserSummary, input: IssueUpdate) {
    return writes.update(
      origin,
      doc,
      actor,
      changesOf(input),
      input.state_event,
      { close: EVENTS.issueClosed, reopen: EVENTS.issueReopened, update: EVENTS.issueUpdated },
      input.updated_at ?? null,
    );
  }

  return {
    createIssue,
    updateIssue,
    moveIssueBetween: (scope: string, id: number, afterId: number | null, beforeId: number | null) =>
      positions.moveBetween(scope, id, afterId, beforeId),
  };
}
