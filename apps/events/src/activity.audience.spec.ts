import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { toActivity } from './activity.mapping';
import { activityTarget } from './events.visibility';
import { branchPushed, noteCreated, targetEvent } from './testing/envelopes';

const D = DOMAIN_EVENT_TYPES.discussions;
const B = DOMAIN_EVENT_TYPES.boards;
const target = { targetId: 7, targetIid: 2, targetTitle: 'T' };

describe('the audience an activity event is read with', () => {
  it('When a target event carries an audience, then the activity keeps it and is read with it', () => {
    const audience = { confidential: true, authorId: 3, assigneeIds: [4] };
    const activity = toActivity(targetEvent(D.issueOpened, 5, { ...target, audience }))!;
    expect(activity.audience).toEqual(audience);
    expect(activityTarget({ _id: 1, ...activity })).toEqual({ kind: 'Issue', ...audience });
  });

  it('When a note event carries its noteable audience and internal, then the note is read as its noteable', () => {
    const audience = { visibility: 'private' as const, authorId: 3, internal: true };
    const activity = toActivity(noteCreated(5, { noteableType: 'Snippet', audience }))!;
    expect(activityTarget({ _id: 1, ...activity })).toEqual({ kind: 'Snippet', ...audience });
  });

  it.each([
    ['a push', branchPushed(5), { kind: 'Code' }],
    ['a commit note', noteCreated(5, { noteableType: 'Commit', noteableId: null }), { kind: 'Code' }],
    ['a merge request', targetEvent(D.mergeRequestOpened, 5, target), { kind: 'MergeRequest' }],
    ['an issue', targetEvent(D.issueOpened, 5, target), { kind: 'Issue' }],
    // Snippets could be private and epics confidential before events said so: read as such.
    ['a snippet', targetEvent(D.snippetCreated, 5, target), { kind: 'Snippet', visibility: 'private' }],
    [
      'an epic',
      targetEvent(D.epicOpened, null, target, { groupId: 9 }),
      { kind: 'Epic', confidential: true },
    ],
    ['a note on an epic', noteCreated(5, { noteableType: 'Epic' }), { kind: 'Epic', confidential: true }],
    ['a milestone', targetEvent(B.milestoneOpened, null, target, { groupId: 9 }), { kind: 'Milestone' }],
  ])(
    'When %s was published without an audience, then it is read by its kind alone',
    (_what, event, expected) => {
      const activity = toActivity(event)!;
      expect(activity).not.toHaveProperty('audience');
      expect(activityTarget({ _id: 1, ...activity })).toEqual(expected);
    },
  );
});
