import { DOMAIN_EVENT_TYPES, type EventEnvelope, type InternalContext } from '@gl/contracts';
import { testNamespace, testPrincipal } from '@gl/testing';
import { toActivity } from './activity.mapping';
import type { ActivityDoc } from './events.models';
import { activityTarget, isSensitive, projectActivityCheck } from './events.visibility';
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

const activityOf = (event: EventEnvelope): ActivityDoc => ({ _id: 1, ...toActivity(event)! });

describe('sensitive events and the project list without per-event checks', () => {
  it.each([
    ['a merge request', targetEvent(D.mergeRequestOpened, 5, target), false],
    ['a push', branchPushed(5), false],
    ['an issue', targetEvent(D.issueOpened, 5, { ...target, audience: { confidential: false } }), false],
    [
      'a public snippet',
      targetEvent(D.snippetCreated, 5, { ...target, audience: { visibility: 'public' } }),
      false,
    ],
    [
      'a confidential issue',
      targetEvent(D.issueOpened, 5, { ...target, audience: { confidential: true } }),
      true,
    ],
    [
      'an internal snippet',
      targetEvent(D.snippetCreated, 5, { ...target, audience: { visibility: 'internal' } }),
      true,
    ],
    ['a snippet without audience', targetEvent(D.snippetCreated, 5, target), true],
    ['an internal note', noteCreated(5, { audience: { internal: true } }), true],
  ])('When the event is %s, then sensitive is %s', (_what, event, sensitive) => {
    expect(isSensitive(activityOf(event))).toBe(sensitive);
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
  const count = (n: number | undefined) => () => Promise.resolve(n);

  it('When the caller reads every target, or the stream holds nothing sensitive for an open project, then no check', async () => {
    expect(await projectActivityCheck(ctx('private', 20), count(3))).toBeNull();
    expect(await projectActivityCheck(ctx('public', 0, false), count(0))).toBeNull();
    expect(await projectActivityCheck(ctx('internal', 0), count(0))).toBeNull();
  });

  it('When sensitive events are there or not counted, or the caller is a Guest of a private project, then a check', async () => {
    const confidential = activityOf(
      targetEvent(D.issueOpened, 5, { ...target, audience: { confidential: true, authorId: 1 } }),
    );
    const check = await projectActivityCheck(ctx('public', 0, false), count(1));
    expect(check?.(confidential)).toBe(false);
    expect(await projectActivityCheck(ctx('public', 0, false), count(undefined))).not.toBeNull();
    const guest = await projectActivityCheck(ctx('private', 10), count(0));
    expect(guest?.(activityOf(targetEvent(D.mergeRequestOpened, 5, target)))).toBe(false);
  });
});
