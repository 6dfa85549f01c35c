import { DOMAIN_EVENT_TYPES, type EventEnvelope, type InternalContext } from '@gl/contracts';
import { testNamespace, testPrincipal } from '@gl/testing';
import { toActivity } from './activity.mapping';
import type { ActivityDoc } from './events.models';
import { projectReachFilter } from './activity-access';
import { withReach } from './activity-log.store';
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

const stored = (event: EventEnvelope): ActivityDoc => withReach({ _id: 1, ...toActivity(event)! });

/** Reach bits (activity-reach.ts READER_CLASSES): anonymous, signed in, Guest (open), Guest (private). */
const EVERYONE = 0b1111;
const NOT_PRIVATE_GUESTS = 0b0111;

describe('who reads an event, stored with it, and the project list as one query', () => {
  it.each([
    ['a merge request', targetEvent(D.mergeRequestOpened, 5, target), NOT_PRIVATE_GUESTS, null],
    ['a push', branchPushed(5), NOT_PRIVATE_GUESTS, null],
    [
      'an issue',
      targetEvent(D.issueOpened, 5, { ...target, audience: { confidential: false } }),
      EVERYONE,
      null,
    ],
    [
      'a public snippet',
      targetEvent(D.snippetCreated, 5, { ...target, audience: { visibility: 'public' } }),
      EVERYONE,
      null,
    ],
    [
      'a confidential issue',
      targetEvent(D.issueOpened, 5, {
        ...target,
        audience: { confidential: true, authorId: 3, assigneeIds: [4] },
      }),
      0,
      ',3,4,',
    ],
    [
      'an internal snippet',
      targetEvent(D.snippetCreated, 5, { ...target, audience: { visibility: 'internal', authorId: 3 } }),
      0b1110,
      null,
    ],
    ['a snippet without audience', targetEvent(D.snippetCreated, 5, target), 0b1100, null],
    ['an internal note', noteCreated(5, { audience: { internal: true, authorId: 3 } }), 0, null],
  ])('When the event is %s, then reach %s and readers %s', (_what, event, reach, readers) => {
    expect(stored(event)).toMatchObject({ reach, readers });
  });

  const ctx = (
    visibility: 'private' | 'internal' | 'public',
    level: number,
    signedIn = true,
  ): InternalContext => ({
    v: 1,
    requestId: 'r',
    exp: Date.now() + 60_000,
    tier: 'ultimate',
    externalUrl: 'http://localhost',
    principal: signedIn ? testPrincipal({ id: 9 }) : null,
    namespace: testNamespace({ kind: 'project', id: 5, visibility, accessLevel: level }),
  });

  it('When the caller reads every target of the project, then the list has no condition on reach', () => {
    expect(projectReachFilter(ctx('private', 20))).toBeNull();
    expect(projectReachFilter(ctx('public', 50, false))).toBeNull();
  });

  it('When the caller reads by class, then what the class reads, and their own targets when signed in', () => {
    expect(projectReachFilter(ctx('public', 0, false))).toEqual({
      reach: { $in: [null, 1, 3, 5, 7, 9, 11, 13, 15] },
    });
    expect(projectReachFilter(ctx('private', 10))).toEqual({
      $or: [{ reach: { $in: [null, 8, 9, 10, 11, 12, 13, 14, 15] } }, { readers: { $regex: ',9,' } }],
    });
  });
});
