import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { connectBus, createLogger } from '@gl/service-kit';
import { eventually, testEnv } from '@gl/testing';
import { api, gitlab, unique } from './e2e.helpers';

interface Note {
  id: number;
  type: string | null;
  body: string;
  system: boolean;
  noteable_type: string;
  resolvable: boolean;
  resolved?: boolean;
  resolved_by?: { id: number } | null;
  position?: Record<string, unknown>;
}
/** lib/api/entities/issue_link.rb, as much of it as the tests read. */
interface IssueLinkAnswer {
  source_issue: { iid: number };
  target_issue: { iid: number };
  link_type: string;
}
interface Discussion {
  id: string;
  individual_note: boolean;
  resolved?: boolean;
  notes: Note[];
}

/**
 * Discussions through the gateway with the real client: every noteable's thread API, a diff note sent
 * as multipart (gitbeaker's own encoding) and as nested JSON (python-gitlab's), thread resolution, and a
 * single comment turned into a thread.
 */
describe('discussions with @gitbeaker/rest', () => {
  const root = gitlab();
  let projectId: number;
  let groupId: number;

  beforeAll(async () => {
    const path = unique('disc');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    groupId = group.id;
    const project = await root.Projects.create({ name: 'app', namespaceId: group.id });
    projectId = project.id;
  });

  it('When an issue gets a thread, a reply and an edit, then IssueDiscussions shows them oldest first', async () => {
    const issue = await root.Issues.create(projectId, 'Bug');
    const thread = (await root.IssueDiscussions.create(
      projectId,
      issue.iid,
      'Steps?',
    )) as unknown as Discussion;
    expect(thread.id).toMatch(/^[0-9a-f]{40}$/);
    expect(thread.individual_note).toBe(false);
    const reply = (await root.IssueDiscussions.addNote(
      projectId,
      issue.iid,
      thread.id,
      'Click',
    )) as unknown as Note;
    await root.IssueDiscussions.editNote(projectId, issue.iid, thread.id, reply.id, { body: 'Click twice' });
    const shown = (await root.IssueDiscussions.show(
      projectId,
      issue.iid,
      thread.id,
    )) as unknown as Discussion;
    expect(shown.notes.map((n) => [n.body, n.type])).toEqual([
      ['Steps?', 'DiscussionNote'],
      ['Click twice', 'DiscussionNote'],
    ]);
    await root.IssueDiscussions.removeNote(projectId, issue.iid, thread.id, reply.id);
    const all = (await root.IssueDiscussions.all(projectId, issue.iid)) as unknown as Discussion[];
    expect(all.map((d) => d.notes.length)).toEqual([1]);
  });

  it('When an issue is closed, then its "closed" system note is listed as an individual note', async () => {
    const issue = await root.Issues.create(projectId, 'To close');
    await root.Issues.edit(projectId, issue.iid, { stateEvent: 'close' });
    const all = (await root.IssueDiscussions.all(projectId, issue.iid)) as unknown as Discussion[];
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      individual_note: true,
      notes: [{ body: 'closed', system: true, type: null }],
    });
  });

  it('When a single comment is replied to, then it becomes a thread with the same id', async () => {
    const issue = await root.Issues.create(projectId, 'Single');
    const single = (await root.IssueNotes.create(projectId, issue.iid, 'just a comment')) as unknown as Note;
    expect(single.type).toBeNull();
    const [discussion] = (await root.IssueDiscussions.all(projectId, issue.iid)) as unknown as Discussion[];
    expect(discussion!.individual_note).toBe(true);
    const reply = (await root.IssueDiscussions.addNote(
      projectId,
      issue.iid,
      discussion!.id,
      'reply',
    )) as unknown as Note;
    expect(reply.type).toBe('DiscussionNote');
    const thread = (await root.IssueDiscussions.show(
      projectId,
      issue.iid,
      discussion!.id,
    )) as unknown as Discussion;
    expect(thread.individual_note).toBe(false);
    expect(thread.notes.map((n) => [n.id, n.type])).toEqual([
      [single.id, 'DiscussionNote'],
      [reply.id, 'DiscussionNote'],
    ]);
  });

  describe('merge request diff notes', () => {
    let mrIid: number;
    let refs: { base_sha: string; head_sha: string; start_sha: string };

    beforeAll(async () => {
      await root.Commits.create(projectId, 'main', 'Initial', [
        { action: 'create', filePath: 'a.rb', content: 'a' },
      ]);
      await root.Commits.create(projectId, 'feature', 'Feature', [
        { action: 'create', filePath: 'b.rb', content: 'b' },
      ]);
      const mr = await root.MergeRequests.create(projectId, 'feature', 'main', 'Feature');
      mrIid = mr.iid;
      refs = mr.diff_refs as typeof refs;
    });

    it("When gitbeaker reads the merge request's commits, changes and diffs, then the Feature commit and b.rb as new", async () => {
      const commits = await root.MergeRequests.allCommits(projectId, mrIid);
      expect(commits.map((c) => c.title)).toEqual(['Feature']);
      const changes = await root.MergeRequests.showChanges(projectId, mrIid);
      expect(changes.changes).toEqual([
        expect.objectContaining({
          new_path: 'b.rb',
          new_file: true,
          diff: '@@ -0,0 +1 @@\n+b\n\\ No newline at end of file\n',
        }),
      ]);
      const diffs = await root.MergeRequests.allDiffs(projectId, mrIid, { unidiff: true } as never);
      expect(diffs.map((d) => d.diff)).toEqual([
        '--- /dev/null\n+++ b/b.rb\n@@ -0,0 +1 @@\n+b\n\\ No newline at end of file\n',
      ]);
    });

    /** A thread on line 1 of b.rb as gitbeaker sends it: multipart form fields position[...]. */
    const multipartThread = async (body: string) =>
      (await root.MergeRequestDiscussions.create(projectId, mrIid, body, {
        position: {
          baseSha: refs.base_sha,
          startSha: refs.start_sha,
          headSha: refs.head_sha,
          positionType: 'text',
          newPath: 'b.rb',
          oldPath: 'b.rb',
          newLine: '1',
        },
      })) as unknown as Discussion;

    /** A thread on line 1 of b.rb as python-gitlab sends it: the position as nested JSON. */
    const postJsonThread = (body: string) =>
      api(`/projects/${projectId}/merge_requests/${mrIid}/discussions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          body,
          position: { ...refs, position_type: 'text', new_path: 'b.rb', old_path: 'b.rb', new_line: 1 },
        }),
      });

    it('When a diff note is sent as multipart, then it is a resolvable DiffNote at its position', async () => {
      expect(refs.base_sha).toMatch(/^[0-9a-f]{40}$/);
      const multipart = await multipartThread('multipart nit');
      expect(multipart.notes[0]).toMatchObject({ type: 'DiffNote', resolvable: true });
      expect(multipart.notes[0]!.position).toMatchObject({
        head_sha: refs.head_sha,
        new_path: 'b.rb',
        new_line: 1,
      });
    });

    it('When a diff note is sent as nested JSON, then it is a DiffNote at its position', async () => {
      const json = await postJsonThread('json nit');
      expect(json.status).toBe(201);
      const jsonThread = (await json.json()) as Discussion;
      expect(jsonThread.notes[0]).toMatchObject({
        type: 'DiffNote',
        position: { position_type: 'text', new_line: 1 },
      });
    });

    it('When a diff thread is resolved, then the thread and its note are resolved', async () => {
      const thread = await multipartThread('resolve me');
      const resolved = (await root.MergeRequestDiscussions.resolve(
        projectId,
        mrIid,
        thread.id,
        true,
      )) as unknown as Discussion;
      expect(resolved.resolved).toBe(true);
      expect(resolved.notes[0]!.resolved).toBe(true);
    });

    it('When a diff note is resolved through its note, then it is resolved; body and resolved together are 400', async () => {
      const jsonThread = (await (await postJsonThread('resolve my note')).json()) as Discussion;
      const note = (await root.MergeRequestDiscussions.editNote(
        projectId,
        mrIid,
        jsonThread.id,
        jsonThread.notes[0]!.id,
        {
          resolved: true,
        },
      )) as unknown as Note;
      expect(note.resolved).toBe(true);

      const both = await api(
        `/projects/${projectId}/merge_requests/${mrIid}/discussions/${jsonThread.id}/notes/${jsonThread.notes[0]!.id}`,
        {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ body: 'x', resolved: false }),
        },
      );
      expect(both.status).toBe(400);
      expect(await both.json()).toEqual({ error: 'body, resolved are mutually exclusive' });
    });
  });

  it('When a commit gets a diff thread, then CommitDiscussions lists it', async () => {
    const commit = await root.Commits.create(projectId, 'main', 'Docs', [
      { action: 'create', filePath: 'README.md', content: '#' },
    ]);
    expect(commit.id).toMatch(/^[0-9a-f]{40}$/);
    const onCommit = (await root.CommitDiscussions.create(projectId, commit.id, 'On the commit', {
      position: {
        baseSha: commit.id,
        startSha: commit.id,
        headSha: commit.id,
        positionType: 'text',
        newPath: 'README.md',
        newLine: '1',
      },
    })) as unknown as Discussion;
    expect(onCommit.notes[0]).toMatchObject({ type: 'DiffNote', noteable_type: 'Commit' });
    expect(((await root.CommitDiscussions.all(projectId, commit.id)) as unknown as Discussion[]).length).toBe(
      1,
    );
  });

  it('When a project snippet gets a thread, then its note is on a Snippet', async () => {
    const snippet = await root.ProjectSnippets.create(projectId, 'Snippet', {
      files: [{ filePath: 'x.rb', content: 'puts 1' }],
    });
    const onSnippet = (await root.ProjectSnippetDiscussions.create(
      projectId,
      snippet.id,
      'On the snippet',
    )) as unknown as Discussion;
    expect(onSnippet.notes[0]!.noteable_type).toBe('Snippet');
  });

  it('When an epic gets a thread, then EpicDiscussions lists it', async () => {
    const epic = await root.Epics.create(groupId, 'Epic');
    const onEpic = (await root.EpicDiscussions.create(
      groupId,
      epic.id,
      'On the epic',
    )) as unknown as Discussion;
    expect(onEpic.notes[0]!.noteable_type).toBe('Epic');
    const listed = (await root.EpicDiscussions.all(groupId, epic.id)) as unknown as Discussion[];
    expect(listed.map((d) => d.id)).toEqual([onEpic.id]);
  });

  it('When alerts publishes alert.created (twice) and alert.resolved, then the running service opens one incident and closes it', async () => {
    const bus = await connectBus(
      testEnv('stackNatsUrl'),
      'discussions-e2e-alerts',
      createLogger('e2e', 'silent'),
    );
    const alertId = randomUUID();
    const envelope = (type: string, data: Record<string, unknown>) => ({
      id: randomUUID(),
      type,
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'alerts',
      correlationId: null,
      actor: null,
      projectId,
      groupId: null,
      data,
    });
    const created = envelope(DOMAIN_EVENT_TYPES.alerts.alertCreated, {
      alertId,
      alertIid: 1,
      title: 'Error rate',
      description: null,
      severity: 'critical',
      createIncident: true,
    });
    const incidents = async () =>
      (
        (await root.Issues.all({ projectId })) as unknown as {
          iid: number;
          issue_type: string;
          state: string;
        }[]
      ).filter((i) => i.issue_type === 'incident');
    const until = <T>(probe: () => Promise<T>, ok: (value: T) => boolean): Promise<T> =>
      eventually(probe, ok, 15_000);
    try {
      await bus.publish(created);
      await bus.publish({ ...created, id: randomUUID() });
      const opened = await until(incidents, (list) => list.length > 0);
      expect(opened).toHaveLength(1);
      await bus.publish(envelope(DOMAIN_EVENT_TYPES.alerts.alertResolved, { alertId, alertIid: 1 }));
      const closed = await until(incidents, (list) => list[0]?.state === 'closed');
      expect(closed).toMatchObject([{ state: 'closed' }]);
      // The state is written first and its system note right after: a reader between the two sees no note.
      const threads = () =>
        root.IssueDiscussions.all(projectId, closed[0]!.iid) as unknown as Promise<Discussion[]>;
      const notes = await until(threads, (list) => list.length > 0);
      expect(notes.map((d) => d.notes[0]!.body)).toEqual(['closed']);
    } finally {
      await bus.close();
    }
  });

  it('When an issue is renamed and assigned to a new user, then the title and "assigned to @user" system notes', async () => {
    const username = unique('assignee');
    const user = await root.Users.create({
      username,
      name: 'Assignee',
      email: `${username}@example.com`,
      password: 'long-enough-pass',
    });
    await root.GroupMembers.add(groupId, 30, { userId: user.id }); // GitLab assigns people who can read the issue
    const issue = await root.Issues.create(projectId, 'Login broken');
    await root.Issues.edit(projectId, issue.iid, { title: 'Signup broken' });
    const systemNotes = async () =>
      ((await root.IssueDiscussions.all(projectId, issue.iid)) as unknown as Discussion[])
        .flatMap((d) => d.notes)
        .filter((n) => n.system)
        .map((n) => n.body);
    // The username reaches discussions through gl.identity.user.created (eventually): until it has, an
    // assignment names nobody and writes no note, so assign again until the note appears.
    const deadline = Date.now() + 15_000;
    let notes = await systemNotes();
    while (!notes.includes(`assigned to @${username}`) && Date.now() < deadline) {
      await root.Issues.edit(projectId, issue.iid, { assigneeIds: [] });
      await root.Issues.edit(projectId, issue.iid, { assigneeIds: [user.id] });
      notes = await systemNotes();
    }
    expect(notes[0]).toBe('changed title from **{-Login-} broken** to **{+Signup+} broken**');
    expect(notes[notes.length - 1]).toBe(`assigned to @${username}`);
  });

  it('When IssueLinks links, lists and removes issues, then each side sees the link and its notes', async () => {
    const [a, b, c] = await Promise.all(
      ['A', 'B', 'C'].map((t) => root.Issues.create(projectId, `Linked ${t}`)),
    );
    const ends = (l: unknown) => {
      const link = l as IssueLinkAnswer;
      return [link.source_issue.iid, link.target_issue.iid, link.link_type];
    };
    const related = await root.IssueLinks.create(projectId, a!.iid, projectId, b!.iid);
    expect(ends(related)).toEqual([a!.iid, b!.iid, 'relates_to']);
    // is_blocked_by is stored as C blocks A.
    const linkType = 'is_blocked_by';
    const blocked = await root.IssueLinks.create(projectId, a!.iid, projectId, c!.iid, { linkType });
    expect(ends(blocked)).toEqual([c!.iid, a!.iid, 'blocks']);
    type Related = { iid: number; issue_link_id: number; link_type: string }[];
    const fromA = (await root.IssueLinks.all(projectId, a!.iid)) as unknown as Related;
    expect(fromA.map((i) => [i.iid, i.link_type])).toEqual([
      [b!.iid, 'relates_to'],
      [c!.iid, 'is_blocked_by'],
    ]);
    const fromC = (await root.IssueLinks.all(projectId, c!.iid)) as unknown as Related;
    expect(fromC.map((i) => i.link_type)).toEqual(['blocks']);
    await expect(root.IssueLinks.create(projectId, b!.iid, projectId, a!.iid)).rejects.toMatchObject({
      cause: { response: { status: 409 } },
    });

    const removed = await root.IssueLinks.remove(projectId, a!.iid, fromA[0]!.issue_link_id);
    expect(ends(removed)).toEqual([a!.iid, b!.iid, 'relates_to']);
    expect(await root.IssueLinks.all(projectId, b!.iid)).toEqual([]);
    const notes = ((await root.IssueNotes.all(projectId, b!.iid, { sort: 'asc' })) as unknown as Note[])
      .filter((n) => n.system)
      .map((n) => n.body);
    expect(notes).toEqual([
      `marked this issue as related to #${a!.iid}`,
      `removed the relation with #${a!.iid}`,
    ]);
  });

  it('When an issue and a merge request change, then IssueLabelEvents, IssueMilestoneEvents, IssueStateEvents and MergeRequestLabelEvents show it', async () => {
    type Event = {
      id: number;
      action?: string;
      state?: string;
      resource_id?: number;
      resource_type?: string;
    };
    const milestone = await root.GroupMilestones.create(groupId, unique('m'));
    const issue = await root.Issues.create(projectId, 'Events', { labels: 'bug' });
    await root.Issues.edit(projectId, issue.iid, {
      addLabels: 'ui',
      removeLabels: 'bug',
      milestoneId: milestone.id,
      weight: 3,
    });
    await root.Issues.edit(projectId, issue.iid, { stateEvent: 'close' });

    const labels = (await root.IssueLabelEvents.all(projectId, issue.iid)) as unknown as (Event & {
      label: { name: string };
    })[];
    expect(labels.map((e) => [e.action, e.label.name, e.resource_type, e.resource_id])).toEqual([
      ['add', 'bug', 'Issue', issue.id],
      ['add', 'ui', 'Issue', issue.id],
      ['remove', 'bug', 'Issue', issue.id],
    ]);
    const one = (await root.IssueLabelEvents.show(projectId, issue.iid, labels[1]!.id)) as unknown as Event;
    expect(one).toEqual(labels[1]);
    const milestones = (await root.IssueMilestoneEvents.all(projectId, issue.iid)) as unknown as (Event & {
      milestone: { id: number };
    })[];
    expect(milestones.map((e) => [e.action, e.milestone.id, e.state])).toEqual([
      ['add', milestone.id, 'opened'],
    ]);
    const states = (await root.IssueStateEvents.all(projectId, issue.iid)) as unknown as Event[];
    expect(states.map((e) => e.state)).toEqual(['closed']);
    // gitbeaker 43's IssueWeightEvents reads resource_state_events, so the weight events are read directly.
    const weights = await api(`/projects/${projectId}/issues/${issue.iid}/resource_weight_events`);
    expect(((await weights.json()) as { weight: number }[]).map((e) => e.weight)).toEqual([3]);
    await expect(root.IssueLabelEvents.show(projectId, issue.iid, 999_999_999)).rejects.toMatchObject({
      cause: { response: { status: 404 } },
    });

    const branch = unique('events-');
    await root.Commits.create(projectId, branch, 'Events', [
      { action: 'create', filePath: `${branch}.md`, content: 'x' },
    ]);
    const mr = await root.MergeRequests.create(projectId, branch, 'main', 'Events', { labels: 'review' });
    await root.MergeRequests.edit(projectId, mr.iid, { labels: 'done' });
    const mrLabels = (await root.MergeRequestLabelEvents.all(projectId, mr.iid)) as unknown as (Event & {
      label: { name: string };
    })[];
    expect(mrLabels.map((e) => [e.action, e.label.name, e.resource_type])).toEqual([
      ['add', 'review', 'MergeRequest'],
      ['add', 'done', 'MergeRequest'],
      ['remove', 'review', 'MergeRequest'],
    ]);
    const anonymous = await api(`/projects/${projectId}/issues/${issue.iid}/resource_label_events`, {
      token: null,
    });
    expect(anonymous.status).toBe(401);
  });

  it('When a thread is created without a token, then 401', async () => {
    const issue = await root.Issues.create(projectId, 'Anon');
    const res = await api(`/projects/${projectId}/issues/${issue.iid}/discussions`, { token: null });
    expect(res.status).toBe(401);
  });
});
