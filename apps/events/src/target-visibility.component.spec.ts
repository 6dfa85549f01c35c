import {
  type ActivityEventEntity,
  type NamespaceContext,
  type Principal,
  type TargetAudience,
} from '@gl/contracts';
import { ROOT as ADMIN, testNamespace, useHarness } from '@gl/testing';
import {
  activityList as events,
  branchPushed,
  D,
  groupEvent,
  ID,
  memberEvent,
  noteCreated,
  person,
  projectEvent,
  targetEvent,
  userCreated,
} from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';

/** Projects 3101 (private) and 3102 (public); group 3301 (public) holds epics. */
const [PRIVATE, PUBLIC, GROUP] = [3101, 3102, 3301];

/** Developer who does most things; guests who authored or are assigned something; a Reporter; an outsider. */
const DEV = person(3201, 'dev');
const GUEST = person(3202, 'guest');
const AUTHOR = person(3203, 'author');
const ASSIGNEE = person(3204, 'assignee');
const REPORTER = person(3205, 'reporter');
const OUTSIDER = person(3206, 'outsider');

type Role = 'anonymous' | 'outsider' | 'guest' | 'reporter' | 'author' | 'assignee' | 'admin';
const CALLERS: Record<Role, { principal: Principal | null; level: number }> = {
  anonymous: { principal: null, level: 0 },
  outsider: { principal: OUTSIDER.principal, level: 0 },
  guest: { principal: GUEST.principal, level: 10 },
  reporter: { principal: REPORTER.principal, level: 20 },
  author: { principal: AUTHOR.principal, level: 10 },
  assignee: { principal: ASSIGNEE.principal, level: 10 },
  admin: { principal: ADMIN, level: 0 },
};
const ROLES = Object.keys(CALLERS) as Role[];

/** What an event shows: a note by its body, a push by its commit title, anything else by its target title. */
function label(e: ActivityEventEntity): string {
  if (e.note) return `note: ${e.note.body}`;
  if (e.push_data) return `push: ${e.push_data.commit_title}`;
  return e.target_title ?? e.action_name;
}

const target = (id: number, title: string, audience?: TargetAudience) => ({
  targetId: id,
  targetIid: id,
  targetTitle: title,
  ...(audience ? { audience } : {}),
});

/**
 * The events service reads each activity event with the rule its target's own service applies (GitLab's
 * Event#visible_to_user?), from the audience the domain event carried: a Guest of a private project sees no
 * merge request titles, no pushes or commit notes, no confidential issue they are not part of, no
 * internal note — in /projects/:id/events, /users/:id/events and /events alike.
 */
describe('activity events read by the target rule', () => {
  const h = useHarness(startEventsHarness);

  beforeAll(async () => {
    const r = h.instance.recorder;
    for (const p of [DEV, GUEST, AUTHOR, ASSIGNEE, REPORTER, OUTSIDER]) {
      await r.apply(userCreated(p.actor.id, p.actor.username));
    }
    await r.apply(groupEvent(ID.groupCreated, GROUP, 'public'));
    await r.apply(projectEvent(ID.projectCreated, PRIVATE, { actor: DEV.actor }));
    await r.apply(projectEvent(ID.projectCreated, PUBLIC, { visibility: 'public', actor: DEV.actor }));
    for (const [source, id] of [
      ['project', PRIVATE],
      ['project', PUBLIC],
      ['group', GROUP],
    ] as const) {
      await r.apply(memberEvent(ID.memberAdded, source, id, DEV.actor.id, { accessLevel: 30 }));
      await r.apply(memberEvent(ID.memberAdded, source, id, REPORTER.actor.id, { accessLevel: 20 }));
      for (const guest of [GUEST, AUTHOR, ASSIGNEE]) {
        await r.apply(memberEvent(ID.memberAdded, source, id, guest.actor.id, { accessLevel: 10 }));
      }
    }
    await h.instance.models.activities.deleteMany({});

    const dev = { actor: DEV.actor };
    const mrAudience = { authorId: DEV.actor.id, assigneeIds: [ASSIGNEE.actor.id] };
    const secretIssue = { confidential: true, authorId: AUTHOR.actor.id, assigneeIds: [] };
    const openIssue = { confidential: false, authorId: DEV.actor.id, assigneeIds: [] };
    // The private project.
    await r.apply(targetEvent(D.mergeRequestOpened, PRIVATE, target(1, 'MR title', mrAudience), dev));
    await r.apply({ ...noteCreated(PRIVATE, mrNote(11, 'on the MR', mrAudience)), actor: DEV.actor });
    await r.apply({ ...branchPushed(PRIVATE, { commitTitle: 'code' }), actor: DEV.actor });
    await r.apply({
      ...noteCreated(PRIVATE, {
        noteId: 12,
        body: 'on a commit',
        noteableType: 'Commit',
        commitId: 'c'.repeat(40),
        noteableId: null,
        noteableIid: null,
        audience: { internal: false },
      }),
      actor: DEV.actor,
    });
    await r.apply(targetEvent(D.issueOpened, PRIVATE, target(2, 'open issue', openIssue), dev));
    await r.apply(
      targetEvent(D.issueOpened, PRIVATE, target(3, 'secret issue', secretIssue), { actor: AUTHOR.actor }),
    );
    await r.apply({
      ...noteCreated(PRIVATE, issueNote(13, 'on the secret issue', 3, secretIssue)),
      actor: DEV.actor,
    });
    await r.apply({
      ...noteCreated(PRIVATE, issueNote(14, 'internal remark', 2, { ...openIssue, internal: true })),
      actor: DEV.actor,
    });
    // Published before events carried an audience: read by type (no Guest author exception).
    await r.apply(targetEvent(D.mergeRequestOpened, PRIVATE, target(4, 'legacy MR'), dev));
    // The public project.
    const snippet = (id: number, title: string, visibility: 'private' | 'internal' | 'public') =>
      targetEvent(D.snippetCreated, PUBLIC, target(id, title, { visibility, authorId: OUTSIDER.actor.id }), {
        actor: OUTSIDER.actor,
      });
    await r.apply(snippet(21, 'private snippet', 'private'));
    await r.apply(snippet(22, 'internal snippet', 'internal'));
    await r.apply(snippet(23, 'public snippet', 'public'));
    await r.apply(targetEvent(D.mergeRequestOpened, PUBLIC, target(24, 'public MR', mrAudience), dev));
    await r.apply(targetEvent(D.issueOpened, PUBLIC, target(25, 'public secret issue', secretIssue), dev));
    await r.apply({
      ...noteCreated(PUBLIC, issueNote(26, 'public internal remark', 25, { ...openIssue, internal: true })),
      actor: DEV.actor,
    });
    // The public group's epics.
    const epic = (id: number, title: string, audience?: TargetAudience) =>
      targetEvent(D.epicOpened, null, target(id, title, audience), { actor: DEV.actor, groupId: GROUP });
    await r.apply(epic(31, 'secret epic', { confidential: true, authorId: DEV.actor.id }));
    await r.apply(epic(32, 'open epic', { confidential: false, authorId: DEV.actor.id }));
    await r.apply(epic(33, 'legacy epic'));
  });

  function mrNote(noteId: number, body: string, audience: TargetAudience) {
    return {
      noteId,
      body,
      noteableType: 'MergeRequest' as const,
      noteableId: 1,
      noteableIid: 1,
      targetTitle: 'MR title',
      audience: { ...audience, internal: false },
    };
  }
  function issueNote(noteId: number, body: string, issueId: number, audience: TargetAudience) {
    return {
      noteId,
      body,
      noteableType: 'Issue' as const,
      noteableId: issueId,
      noteableIid: issueId,
      audience: { internal: false, ...audience },
    };
  }

  function nsOf(id: number, visibility: 'private' | 'public', level: number): NamespaceContext {
    return testNamespace({ kind: 'project', id, visibility, accessLevel: level });
  }

  async function projectEvents(role: Role, id: number, visibility: 'private' | 'public') {
    const { principal, level } = CALLERS[role];
    const res = await h.call(`/projects/${id}/events?per_page=100`, {
      as: principal,
      ns: nsOf(id, visibility, level),
    });
    if (res.status !== 200) return res.status;
    const list = events.parse(res.body);
    expect(res.headers.get('x-total')).toBe(String(list.length));
    return list.map(label).sort();
  }

  it("When each role lists a private project's events, then each sees what the target's own service shows them", async () => {
    const seen: Record<string, unknown> = {};
    for (const role of ROLES) seen[role] = await projectEvents(role, PRIVATE, 'private');
    const everything = [
      'MR title',
      'legacy MR',
      'note: internal remark',
      'note: on a commit',
      'note: on the MR',
      'note: on the secret issue',
      'open issue',
      'push: code',
      'secret issue',
    ];
    expect(seen).toEqual({
      anonymous: 404,
      outsider: 404,
      // A Guest: no merge requests, no code, no confidential issue, no internal note.
      guest: ['open issue'],
      reporter: everything,
      // The confidential issue's author reads it and its notes.
      author: ['note: on the secret issue', 'open issue', 'secret issue'],
      // The merge request's assignee reads it and its notes, but not the older event without an audience.
      assignee: ['MR title', 'note: on the MR', 'open issue'],
      admin: everything,
    });
  });

  it("When each role lists a public project's events, then snippets by visibility, confidential issues and internal notes hidden", async () => {
    const seen: Record<string, unknown> = {};
    for (const role of ROLES) seen[role] = await projectEvents(role, PUBLIC, 'public');
    const members = ['internal snippet', 'private snippet', 'public MR', 'public snippet'];
    const everything = [
      'internal snippet',
      'note: public internal remark',
      'private snippet',
      'public MR',
      'public secret issue',
      'public snippet',
    ];
    expect(seen).toEqual({
      anonymous: ['public MR', 'public snippet'],
      // Signed in: internal snippets too; private ones are for members and their author (the outsider
      // wrote these snippets, as a member since gone).
      outsider: ['internal snippet', 'private snippet', 'public MR', 'public snippet'],
      guest: members,
      reporter: everything,
      // The author of the confidential issue reads it; nobody below Reporter reads the internal note.
      author: ['internal snippet', 'private snippet', 'public MR', 'public secret issue', 'public snippet'],
      assignee: members,
      admin: everything,
    });
  });

  it("When a guest reads a user's events or their own scope=all, then the same rule: no merge request titles, no internal notes", async () => {
    const byDev = await h.call(`/users/${DEV.actor.id}/events?per_page=100`, { as: GUEST.principal });
    const titles = events.parse(byDev.body).map(label).sort();
    expect(titles).toEqual(['open epic', 'open issue', 'public MR']);
    expect(byDev.headers.get('x-total')).toBe('3');
    const all = await h.call('/events?scope=all&per_page=100', { as: GUEST.principal });
    expect(events.parse(all.body).map(label).sort()).toEqual([
      'internal snippet',
      'open issue',
      'private snippet',
      'public MR',
      'public snippet',
    ]);
    const reporterAll = await h.call('/events?scope=all&per_page=100', { as: REPORTER.principal });
    expect(events.parse(reporterAll.body).map(label)).toContain('MR title');
  });

  it("When epics are listed in a user's events, then confidential ones (and older ones without an audience) only for Reporter and up", async () => {
    const read = async (as: Principal | null) =>
      events
        .parse((await h.call(`/users/${DEV.actor.id}/events?per_page=100`, { as })).body)
        .filter((e) => e.target_type === 'Epic')
        .map(label)
        .sort();
    expect(await read(null)).toEqual(['open epic']);
    expect(await read(OUTSIDER.principal)).toEqual(['open epic']);
    expect(await read(GUEST.principal)).toEqual(['open epic']);
    expect(await read(REPORTER.principal)).toEqual(['legacy epic', 'open epic', 'secret epic']);
    expect(await read(ADMIN)).toEqual(['legacy epic', 'open epic', 'secret epic']);
  });

  it('When events are recorded, then each stores who reads it, and anonymous readers get the rest', async () => {
    // Events an anonymous reader of a public project does not read (reach without its bit).
    const hidden = async (id: number) =>
      h.instance.models.activities.countDocuments({
        projectId: id,
        reach: { $in: [0, 2, 4, 6, 8, 10, 12, 14] },
      });
    // Private: the confidential issue, the note on it, the internal note (merge requests and code are
    // closed to guests, but an anonymous reader of a public project reads them).
    expect(await hidden(PRIVATE)).toBe(3);
    // Public: the private and the internal snippet, the confidential issue, the internal note.
    expect(await hidden(PUBLIC)).toBe(4);
    const stored = await h.instance.models.activities.find({ projectId: { $in: [PRIVATE, PUBLIC] } }).lean();
    expect(stored.filter((a) => typeof a.reach !== 'number')).toEqual([]);
    const quiet = 3103;
    await h.instance.recorder.apply(
      projectEvent(ID.projectCreated, quiet, { visibility: 'public', actor: DEV.actor }),
    );
    await h.instance.recorder.apply(
      targetEvent(D.issueOpened, quiet, target(41, 'quiet issue', { confidential: false }), {
        actor: DEV.actor,
      }),
    );
    expect(await hidden(quiet)).toBe(0);
    expect(await projectEvents('anonymous', quiet, 'public')).toEqual(['created', 'quiet issue']);
  });

  it("When an outsider or anonymous caller reads a user's events, then nothing of the private project", async () => {
    for (const as of [null, OUTSIDER.principal]) {
      const list = events.parse((await h.call(`/users/${DEV.actor.id}/events?per_page=100`, { as })).body);
      expect(list.every((e) => e.project_id !== PRIVATE)).toBe(true);
      expect(list.map(label)).not.toContain('note: public internal remark');
    }
  });
});
