import {
  DOMAIN_EVENT_TYPES,
  commitEntity,
  discussionEntity,
  eventEnvelope,
  issueEntity,
  mergeRequestEntity,
  noteCreatedData,
  noteEntity,
  snippetEntity,
  epicEntity,
  type EventEnvelope,
} from '@gl/contracts';
import { startConsumer, type RunningConsumer } from '@gl/service-kit';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, OWNER, eventually, useHarness } from '@gl/testing';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

/** Every field of the envelope but the generated id and time. */
function expected(
  type: string,
  actor: { id: number; username: string; name: string },
  scope: { projectId: number | null; groupId: number | null },
  data: Record<string, unknown>,
) {
  return {
    id: expect.any(String) as string,
    type,
    version: 1,
    occurredAt: expect.any(String) as string,
    producer: 'discussions',
    correlationId: 'test-request',
    actor: { id: actor.id, username: actor.username, name: actor.name },
    ...scope,
    data,
  };
}

describe('Domain events published by discussions', () => {
  const h = useHarness(startDiscussionsHarness);

  async function eventsOf(type: string, filter: (e: EventEnvelope) => boolean): Promise<EventEnvelope[]> {
    return (await h.pendingEvents())
      .filter((e) => e.type === type && filter(e))
      .map((e) => eventEnvelope.parse(e));
  }

  it('When an issue is opened, closed and reopened, then issue.opened/closed/reopened carry the target', async () => {
    const ns = projectNamespace();
    const issue = issueEntity.parse(
      (await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Broken' } })).body,
    );
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { state_event: 'close' } });
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { state_event: 'reopen' } });
    const data = {
      targetId: issue.id,
      targetIid: 1,
      targetTitle: 'Broken',
      audience: { confidential: false, authorId: OWNER.id, assigneeIds: [] },
    };
    const scope = { projectId: ns.id, groupId: null };
    for (const type of [EVENTS.issueOpened, EVENTS.issueClosed, EVENTS.issueReopened]) {
      expect(await eventsOf(type, (e) => e.projectId === ns.id)).toEqual([
        expected(type, OWNER, scope, data),
      ]);
    }
  });

  it('When a merge request is opened, closed, reopened and merged, then each state event is published once', async () => {
    const ns = projectNamespace();
    const mr = mergeRequestEntity.parse(
      (
        await h.call('POST', `/projects/${ns.id}/merge_requests`, {
          ns,
          json: { source_branch: 'f', target_branch: 'main', title: 'Change' },
        })
      ).body,
    );
    await h.call('PUT', `/projects/${ns.id}/merge_requests/1`, { ns, json: { state_event: 'close' } });
    await h.call('PUT', `/projects/${ns.id}/merge_requests/1`, { ns, json: { state_event: 'reopen' } });
    await h.call('PUT', `/projects/${ns.id}/merge_requests/1/merge`, { ns });
    const data = {
      targetId: mr.id,
      targetIid: 1,
      targetTitle: 'Change',
      audience: { authorId: OWNER.id, assigneeIds: [] },
    };
    const scope = { projectId: ns.id, groupId: null };
    for (const type of [
      EVENTS.mergeRequestOpened,
      EVENTS.mergeRequestClosed,
      EVENTS.mergeRequestReopened,
      EVENTS.mergeRequestMerged,
    ]) {
      expect(await eventsOf(type, (e) => e.projectId === ns.id)).toEqual([
        expected(type, OWNER, scope, data),
      ]);
    }
    const [push] = await eventsOf(EVENTS.branchPushed, (e) => e.projectId === ns.id);
    expect(push!.data).toMatchObject({
      ref: 'main',
      commitCount: 1,
      commitTitle: "Merge branch 'f' into 'main'",
    });
  });

  it('When a snippet and an epic are created, then snippet.created (no iid) and epic.opened (group) are published', async () => {
    const ns = projectNamespace();
    const snippet = snippetEntity.parse(
      (
        await h.call('POST', `/projects/${ns.id}/snippets`, {
          ns,
          json: { title: 'S', file_name: 's.txt', content: 'x' },
        })
      ).body,
    );
    expect(await eventsOf(EVENTS.snippetCreated, (e) => e.projectId === ns.id)).toEqual([
      expected(
        EVENTS.snippetCreated,
        OWNER,
        { projectId: ns.id, groupId: null },
        {
          targetId: snippet.id,
          targetIid: null,
          targetTitle: 'S',
          audience: { visibility: 'private', authorId: OWNER.id },
        },
      ),
    ]);
    const group = groupNamespace();
    const epic = epicEntity.parse(
      (await h.call('POST', `/groups/${group.id}/epics`, { ns: group, json: { title: 'E' } })).body,
    );
    expect(await eventsOf(EVENTS.epicOpened, (e) => e.groupId === group.id)).toEqual([
      expected(
        EVENTS.epicOpened,
        OWNER,
        { projectId: null, groupId: group.id },
        {
          targetId: epic.id,
          targetIid: 1,
          targetTitle: 'E',
          audience: { confidential: false, authorId: OWNER.id },
        },
      ),
    ]);
  });

  it('When a note is created on an issue, then note.created carries the note; system notes publish nothing', async () => {
    const ns = projectNamespace();
    const issue = issueEntity.parse(
      (await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'T' } })).body,
    );
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { state_event: 'close' } });
    const thread = discussionEntity.parse(
      (await h.call('POST', `/projects/${ns.id}/issues/1/discussions`, { ns, json: { body: 'Hello' } })).body,
    );
    const note = thread.notes[0]!;
    expect(await eventsOf(EVENTS.noteCreated, (e) => e.projectId === ns.id)).toEqual([
      expected(
        EVENTS.noteCreated,
        OWNER,
        { projectId: ns.id, groupId: null },
        {
          noteId: note.id,
          noteType: 'DiscussionNote',
          discussionId: thread.id,
          body: 'Hello',
          system: false,
          createdAt: note.created_at,
          noteableType: 'Issue',
          noteableId: issue.id,
          noteableIid: 1,
          commitId: null,
          targetTitle: 'T',
          audience: { confidential: false, authorId: OWNER.id, assigneeIds: [], internal: false },
          // As the note's author shows it (hook payloads build a new comment from its event).
          authorAvatarUrl: note.author.avatar_url,
        },
      ),
    ]);
  });

  it('When commits are pushed, then the first push to a branch is "created" and later ones "pushed"; commit notes name the SHA', async () => {
    const ns = projectNamespace();
    const push = async (message: string) =>
      commitEntity.parse(
        (
          await h.call('POST', `/projects/${ns.id}/repository/commits`, {
            ns,
            as: DEVELOPER,
            json: {
              branch: 'main',
              commit_message: message,
              actions: [{ action: 'create', file_path: 'f' }],
            },
          })
        ).body,
      );
    const first = await push('First');
    const second = await push('Second');
    const pushes = await eventsOf(EVENTS.branchPushed, (e) => e.projectId === ns.id);
    const scope = { projectId: ns.id, groupId: null };
    expect(pushes).toEqual([
      expected(EVENTS.branchPushed, DEVELOPER, scope, {
        ref: 'main',
        refType: 'branch',
        action: 'created',
        commitCount: 1,
        commitFrom: null,
        commitTo: first.id,
        commitTitle: 'First',
      }),
      expected(EVENTS.branchPushed, DEVELOPER, scope, {
        ref: 'main',
        refType: 'branch',
        action: 'pushed',
        commitCount: 1,
        commitFrom: first.id,
        commitTo: second.id,
        commitTitle: 'Second',
      }),
    ]);
    const thread = discussionEntity.parse(
      (
        await h.call('POST', `/projects/${ns.id}/repository/commits/${second.id}/discussions`, {
          ns,
          json: { body: 'LGTM' },
        })
      ).body,
    );
    const note = noteEntity.parse(thread.notes[0]);
    const [created] = await eventsOf(EVENTS.noteCreated, (e) => e.projectId === ns.id);
    expect(created!.data).toMatchObject({
      noteId: note.id,
      noteableType: 'Commit',
      noteableId: null,
      noteableIid: null,
      commitId: second.id,
      targetTitle: 'Second',
    });
  });

  it('When a note or a commit message is long, then the events carry an excerpt (EVENT_TEXT_LIMITS), never the whole text', async () => {
    const group = groupNamespace();
    const epic = epicEntity.parse(
      (await h.call('POST', `/groups/${group.id}/epics`, { ns: group, json: { title: 'Big' } })).body,
    );
    const body = 'word '.repeat(200_000).trim(); // 999,999 characters, just under GitLab's note limit
    const thread = discussionEntity.parse(
      (
        await h.call('POST', `/groups/${group.id}/epics/${epic.id}/discussions`, {
          ns: group,
          json: { body },
        })
      ).body,
    );
    expect(thread.notes[0]!.body).toBe(body);
    const [created] = await eventsOf(EVENTS.noteCreated, (e) => e.groupId === group.id);
    expect(created!.data.body).toBe(`${body.slice(0, 997)}...`);
    expect(noteCreatedData.safeParse(created!.data).success).toBe(true);

    const ns = projectNamespace();
    const title = `Refactor ${'the storage layer '.repeat(10)}`.trim();
    await h.call('POST', `/projects/${ns.id}/repository/commits`, {
      ns,
      json: {
        branch: 'main',
        commit_message: `${title}\n\nLong body`,
        actions: [{ action: 'create', file_path: 'f' }],
      },
    });
    const [push] = await eventsOf(EVENTS.branchPushed, (e) => e.projectId === ns.id);
    // PushEventPayloadService#commit_title: the first line, truncate(70).
    expect(push!.data.commitTitle).toBe(`${title.slice(0, 67)}...`);
  });

  it('When the relay runs, then the pending events reach the bus under their subjects', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Relayed' } });
    const seen: EventEnvelope[] = [];
    const consumer: RunningConsumer = await startConsumer(
      h.runtime.bus,
      {
        durable: `discussions-publisher-test-${ns.id}-${Date.now()}`,
        filterSubjects: [EVENTS.issueOpened],
        handle: async (e) => {
          if (e.projectId === ns.id) seen.push(e);
          await Promise.resolve();
        },
      },
      h.runtime.logger,
    );
    try {
      await h.runtime.outbox.drain();
      const relayed = await eventually(
        async () => seen.map((e) => e.data),
        (data) => data.length > 0,
      );
      expect(relayed).toEqual([expect.objectContaining({ targetTitle: 'Relayed' })]);
    } finally {
      await consumer.stop();
    }
  });
});
