import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { PoisonMessageError } from '@gl/service-kit';
import { toActivity } from './activity.mapping';
import {
  ACTOR,
  branchPushed,
  D,
  envelope,
  ID,
  memberEvent,
  noteCreated,
  projectEvent,
  targetEvent,
  userCreated,
} from './testing/envelopes';

const B = DOMAIN_EVENT_TYPES.boards;
const issue = { targetId: 77, targetIid: 3, targetTitle: 'Broken build' };

describe('toActivity', () => {
  it('When a project is created, then "created" by the actor with no target', () => {
    const event = projectEvent(ID.projectCreated, 5);
    expect(toActivity(event)).toEqual({
      sourceEventId: event.id,
      projectId: 5,
      groupId: null,
      authorId: ACTOR.id,
      authorUsername: ACTOR.username,
      authorName: ACTOR.name,
      action: 'created',
      actionName: 'created',
      targetId: null,
      targetIid: null,
      targetType: null,
      targetTitle: null,
      note: null,
      pushData: null,
      createdAt: new Date(event.occurredAt),
    });
  });

  it('When a project is destroyed, then "destroyed"', () => {
    expect(toActivity(projectEvent(ID.projectDestroyed, 5))).toMatchObject({
      projectId: 5,
      action: 'destroyed',
      actionName: 'destroyed',
      targetType: null,
    });
  });

  it.each([
    [ID.memberAdded, 'joined', 'joined'],
    [ID.memberRemoved, 'left', 'left'],
    [ID.memberExpired, 'expired', 'removed due to membership expiration from'],
  ])(
    'When a project member event %s arrives, then the member is the author of "%s"',
    (type, action, actionName) => {
      const activity = toActivity(memberEvent(type, 'project', 8, 42));
      expect(activity).toMatchObject({ projectId: 8, authorId: 42, action, actionName, targetType: null });
      // The actor (who added the member) is not the author, so no name is carried.
      expect(activity).toMatchObject({ authorUsername: null, authorName: null });
    },
  );

  it('When a group member is added, then no activity (GitLab records project memberships only)', () => {
    expect(toActivity(memberEvent(ID.memberAdded, 'group', 8, 42))).toBeNull();
  });

  it.each([
    [D.issueOpened, 'created', 'opened', 'Issue'],
    [D.issueClosed, 'closed', 'closed', 'Issue'],
    [D.issueReopened, 'reopened', 'opened', 'Issue'],
    [D.mergeRequestOpened, 'created', 'opened', 'MergeRequest'],
    [D.mergeRequestClosed, 'closed', 'closed', 'MergeRequest'],
    [D.mergeRequestReopened, 'reopened', 'opened', 'MergeRequest'],
    [D.mergeRequestMerged, 'merged', 'accepted', 'MergeRequest'],
    [D.mergeRequestApproved, 'approved', 'approved', 'MergeRequest'],
  ])('When %s arrives, then action %s, action_name "%s" on a %s', (type, action, actionName, targetType) => {
    expect(toActivity(targetEvent(type, 5, issue))).toMatchObject({
      projectId: 5,
      authorId: ACTOR.id,
      action,
      actionName,
      targetType,
      targetId: 77,
      targetIid: 3,
      targetTitle: 'Broken build',
    });
  });

  it('When a snippet is created, then "opened" on a Snippet whose target_iid falls back to its id', () => {
    expect(
      toActivity(targetEvent(D.snippetCreated, 5, { targetId: 9, targetIid: null, targetTitle: 'snip' })),
    ).toMatchObject({
      action: 'created',
      actionName: 'opened',
      targetType: 'Snippet',
      targetId: 9,
      targetIid: 9,
    });
  });

  it('When an epic is opened, then a group-level "opened" on an Epic', () => {
    expect(
      toActivity(
        targetEvent(D.epicOpened, null, { targetId: 4, targetIid: 1, targetTitle: 'Epic' }, { groupId: 30 }),
      ),
    ).toMatchObject({ projectId: null, groupId: 30, actionName: 'opened', targetType: 'Epic', targetIid: 1 });
  });

  it.each([
    [B.milestoneOpened, 'created', 'opened'],
    [B.milestoneClosed, 'closed', 'closed'],
    [B.milestoneReopened, 'reopened', 'opened'],
  ])('When milestone event %s arrives, then %s / "%s" on a Milestone', (type, action, actionName) => {
    expect(
      toActivity(targetEvent(type, null, { targetId: 6, targetIid: 2, targetTitle: 'v1' }, { groupId: 30 })),
    ).toMatchObject({ groupId: 30, action, actionName, targetType: 'Milestone', targetId: 6, targetIid: 2 });
  });

  it('When a project milestone is deleted, then "destroyed" on it; merged by a promotion, nothing', () => {
    const removed = (mergedInto: number | null) =>
      envelope({
        type: B.projectMilestoneRemoved,
        projectId: 12,
        data: { milestoneId: 6, projectId: 12, iid: 2, title: 'v1', mergedInto },
      });
    expect(toActivity(removed(null))).toMatchObject({
      projectId: 12,
      action: 'destroyed',
      actionName: 'destroyed',
      targetType: 'Milestone',
      targetId: 6,
      targetIid: 2,
      targetTitle: 'v1',
    });
    expect(toActivity(removed(40))).toBeNull();
  });

  it.each([
    [null, 'Note'],
    ['DiscussionNote' as const, 'DiscussionNote'],
    ['DiffNote' as const, 'DiffNote'],
  ])(
    'When a note of type %s is created, then "commented on" a %s with the note object',
    (noteType, targetType) => {
      expect(toActivity(noteCreated(5, { noteType }))).toMatchObject({
        action: 'commented',
        actionName: 'commented on',
        targetId: 501,
        targetIid: 501,
        targetType,
        targetTitle: 'Broken build',
        note: {
          id: 501,
          type: noteType,
          body: 'Looks good',
          system: false,
          createdAt: '2026-01-02T03:04:05.000Z',
          noteableId: 77,
          noteableType: 'Issue',
          noteableIid: 3,
          commitId: null,
        },
      });
    },
  );

  it('When a system note is created, then no activity', () => {
    expect(toActivity(noteCreated(5, { system: true }))).toBeNull();
  });

  it('When an issue or merge request is updated, or a note edited or deleted, then no activity (EventCreateService records none)', () => {
    // app/services/event_create_service.rb has open/close/reopen/merge for issuables and leave_note for
    // notes: these events are for hooks only.
    const updated = { ...issue, changes: { title: { previous: 'Old', current: 'Broken build' } } };
    expect(toActivity(targetEvent(D.issueUpdated, 5, updated))).toBeNull();
    expect(toActivity(targetEvent(D.mergeRequestUpdated, 5, updated))).toBeNull();
    for (const type of [D.noteUpdated, D.noteDeleted]) {
      expect(toActivity({ ...noteCreated(5), type })).toBeNull();
    }
  });

  it.each([
    ['created' as const, 'pushed new'],
    ['pushed' as const, 'pushed to'],
    ['removed' as const, 'deleted'],
  ])('When a branch push with action %s arrives, then "%s" with push_data', (action, actionName) => {
    expect(toActivity(branchPushed(5, { action }))).toMatchObject({
      action: 'pushed',
      actionName,
      targetType: null,
      pushData: {
        commitCount: 1,
        action,
        refType: 'branch',
        commitFrom: '1'.repeat(40),
        commitTo: '2'.repeat(40),
        ref: 'main',
        commitTitle: 'Fix it',
      },
    });
  });

  it.each([
    ['user created', userCreated(3, 'someone')],
    ['alert created', envelope({ type: DOMAIN_EVENT_TYPES.alerts.alertCreated, projectId: 5, data: {} })],
    ['unknown type', envelope({ type: 'gl.other.thing.happened', data: {} })],
    ['issue opened without actor', targetEvent(D.issueOpened, 5, issue, { actor: null })],
  ])('When the event is %s, then it has no activity meaning', (_what, event) => {
    expect(toActivity(event)).toBeNull();
  });

  it.each([
    ['issue opened', envelope({ type: D.issueOpened, projectId: 5, data: { targetId: 'x' } })],
    ['note created', envelope({ type: D.noteCreated, projectId: 5, data: { noteId: 1 } })],
    [
      'branch pushed',
      envelope({ type: D.branchPushed, projectId: 5, data: { ref: 'main', action: 'moved' } }),
    ],
    ['member added', envelope({ type: ID.memberAdded, data: { sourceType: 'team' } })],
  ])('When a mapped %s event breaks its schema, then PoisonMessageError', (_what, event) => {
    expect(() => toActivity(event)).toThrow(PoisonMessageError);
  });
});
