import type { ActivityDoc } from '../events.models';

/**
 * A stored activity event for log tests: an issue opened in project 7 by user 3, one minute after
 * the previous id, with `overrides` on top.
 */
export function activityDoc(id: number, overrides: Partial<ActivityDoc> = {}): ActivityDoc {
  return {
    _id: id,
    sourceEventId: `event-${id}`,
    projectId: 7,
    groupId: null,
    authorId: 3,
    authorUsername: null,
    authorName: null,
    action: 'created',
    actionName: 'opened',
    targetId: id,
    targetIid: id,
    targetType: 'Issue',
    targetTitle: `issue ${id}`,
    note: null,
    pushData: null,
    createdAt: new Date(Date.UTC(2026, 0, 1) + id * 60_000),
    ...overrides,
  };
}
