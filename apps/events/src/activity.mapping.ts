import {
  DOMAIN_EVENT_TYPES,
  EVENT_TYPES,
  branchPushedData,
  memberEventData,
  noteCreatedData,
  projectEventData,
  projectMilestoneRemovedData,
  targetEventData,
  type ActivityAction,
  type EventEnvelope,
} from '@gl/contracts';
import { eventData } from '@gl/service-kit';
import type { ActivityDoc } from './events.models';

/** What one domain event records in the activity log, before it gets its id. */
export type ActivityDraft = Omit<ActivityDoc, '_id'>;

const IDENTITY = EVENT_TYPES.identity;
const DISCUSSIONS = DOMAIN_EVENT_TYPES.discussions;
const BOARDS = DOMAIN_EVENT_TYPES.boards;

interface TargetRule {
  action: ActivityAction;
  actionName: string;
  targetType: string;
}

/** Issues, merge requests, snippets, epics, milestones: stored action, GitLab's action_name, class name. */
const TARGET_EVENTS: Record<string, TargetRule> = {
  [DISCUSSIONS.issueOpened]: { action: 'created', actionName: 'opened', targetType: 'Issue' },
  [DISCUSSIONS.issueClosed]: { action: 'closed', actionName: 'closed', targetType: 'Issue' },
  [DISCUSSIONS.issueReopened]: { action: 'reopened', actionName: 'opened', targetType: 'Issue' },
  [DISCUSSIONS.mergeRequestOpened]: { action: 'created', actionName: 'opened', targetType: 'MergeRequest' },
  [DISCUSSIONS.mergeRequestClosed]: { action: 'closed', actionName: 'closed', targetType: 'MergeRequest' },
  [DISCUSSIONS.mergeRequestReopened]: {
    action: 'reopened',
    actionName: 'opened',
    targetType: 'MergeRequest',
  },
  [DISCUSSIONS.mergeRequestMerged]: { action: 'merged', actionName: 'accepted', targetType: 'MergeRequest' },
  [DISCUSSIONS.mergeRequestApproved]: {
    action: 'approved',
    actionName: 'approved',
    targetType: 'MergeRequest',
  },
  [DISCUSSIONS.snippetCreated]: { action: 'created', actionName: 'opened', targetType: 'Snippet' },
  [DISCUSSIONS.epicOpened]: { action: 'created', actionName: 'opened', targetType: 'Epic' },
  [BOARDS.milestoneOpened]: { action: 'created', actionName: 'opened', targetType: 'Milestone' },
  [BOARDS.milestoneClosed]: { action: 'closed', actionName: 'closed', targetType: 'Milestone' },
  [BOARDS.milestoneReopened]: { action: 'reopened', actionName: 'opened', targetType: 'Milestone' },
};

const MEMBERSHIP_EVENTS: Record<string, { action: ActivityAction; actionName: string }> = {
  [IDENTITY.memberAdded]: { action: 'joined', actionName: 'joined' },
  [IDENTITY.memberRemoved]: { action: 'left', actionName: 'left' },
  [IDENTITY.memberExpired]: { action: 'expired', actionName: 'removed due to membership expiration from' },
};

const PUSH_ACTION_NAMES = { created: 'pushed new', pushed: 'pushed to', removed: 'deleted' } as const;

function base(event: EventEnvelope, authorId: number): ActivityDraft {
  const actor = event.actor?.id === authorId ? event.actor : null;
  return {
    sourceEventId: event.id,
    projectId: event.projectId,
    groupId: event.groupId,
    authorId,
    authorUsername: actor?.username ?? null,
    authorName: actor?.name ?? null,
    action: 'created',
    actionName: 'created',
    targetId: null,
    targetIid: null,
    targetType: null,
    targetTitle: null,
    note: null,
    pushData: null,
    createdAt: new Date(event.occurredAt),
  };
}

/**
 * Turns one domain event into the activity event GitLab would record (Event#action_name, Entities::Event),
 * or null when the event has no activity meaning (or no author). Throws PoisonMessageError when a mapped
 * event carries a payload that breaks its contract.
 */
export function toActivity(event: EventEnvelope): ActivityDraft | null {
  const target = TARGET_EVENTS[event.type];
  if (target) {
    const data = eventData(targetEventData, event);
    if (!event.actor) return null;
    return {
      ...base(event, event.actor.id),
      action: target.action,
      actionName: target.actionName,
      targetId: data.targetId,
      // GitLab: target.iid when the target has one, else its id.
      targetIid: data.targetIid ?? data.targetId,
      targetType: target.targetType,
      targetTitle: data.targetTitle,
      ...(data.audience ? { audience: data.audience } : {}),
    };
  }
  const membership = MEMBERSHIP_EVENTS[event.type];
  if (membership) {
    const data = eventData(memberEventData, event);
    // GitLab records join/leave on projects only; the member is the author ("X joined project").
    if (data.sourceType !== 'project') return null;
    return {
      ...base(event, data.userId),
      projectId: data.sourceId,
      action: membership.action,
      actionName: membership.actionName,
    };
  }
  switch (event.type) {
    case IDENTITY.projectCreated:
    case IDENTITY.projectDestroyed: {
      const data = eventData(projectEventData, event);
      if (!event.actor) return null;
      const destroyed = event.type === IDENTITY.projectDestroyed;
      return {
        ...base(event, event.actor.id),
        projectId: data.projectId,
        action: destroyed ? 'destroyed' : 'created',
        actionName: destroyed ? 'destroyed' : 'created',
      };
    }
    case BOARDS.projectMilestoneRemoved: {
      // Milestones::DestroyService records `destroyed` on the milestone (EventCreateService
      // #destroy_milestone); a promotion's merge (PromoteService) records nothing.
      const data = eventData(projectMilestoneRemovedData, event);
      if (!event.actor || data.mergedInto !== null) return null;
      return {
        ...base(event, event.actor.id),
        projectId: data.projectId,
        action: 'destroyed',
        actionName: 'destroyed',
        targetId: data.milestoneId,
        targetIid: data.iid,
        targetType: 'Milestone',
        targetTitle: data.title,
      };
    }
    case DISCUSSIONS.noteCreated: {
      const data = eventData(noteCreatedData, event);
      // Notes::PostProcessService records no event for system notes.
      if (!event.actor || data.system) return null;
      return {
        ...base(event, event.actor.id),
        action: 'commented',
        actionName: 'commented on',
        targetId: data.noteId,
        targetIid: data.noteId,
        targetType: data.noteType ?? 'Note',
        targetTitle: data.targetTitle,
        note: {
          id: data.noteId,
          type: data.noteType,
          body: data.body,
          system: data.system,
          createdAt: data.createdAt,
          noteableId: data.noteableId,
          noteableType: data.noteableType,
          noteableIid: data.noteableIid,
          commitId: data.commitId,
        },
        ...(data.audience ? { audience: data.audience } : {}),
      };
    }
    case DISCUSSIONS.branchPushed: {
      const data = eventData(branchPushedData, event);
      if (!event.actor) return null;
      return {
        ...base(event, event.actor.id),
        action: 'pushed',
        actionName: PUSH_ACTION_NAMES[data.action],
        pushData: {
          commitCount: data.commitCount,
          action: data.action,
          refType: data.refType,
          commitFrom: data.commitFrom,
          commitTo: data.commitTo,
          ref: data.ref,
          commitTitle: data.commitTitle,
        },
      };
    }
    default:
      return null;
  }
}
