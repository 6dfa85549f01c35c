import { DOMAIN_EVENT_TYPES, noteChangedData, noteEntity, type EventEnvelope } from '@gl/contracts';
import { DEVELOPER, OWNER, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

describe('note.updated and note.deleted: edits and deletions of comments, for hooks', () => {
  const h = useHarness(startDiscussionsHarness);

  async function eventsOf(type: string, projectId: number): Promise<EventEnvelope[]> {
    return (await h.pendingEvents()).filter((e) => e.type === type && e.projectId === projectId);
  }

  it('When a comment is edited and then deleted, then note.updated and note.deleted carry it as it was', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Broken' } });
    const notes = `/projects/${ns.id}/issues/1/notes`;
    const note = noteEntity.parse(
      (await h.call('POST', notes, { ns, as: DEVELOPER, json: { body: 'First' } })).body,
    );
    const edited = noteEntity.parse(
      (await h.call('PUT', `${notes}/${note.id}`, { ns, as: DEVELOPER, json: { body: 'Second' } })).body,
    );
    expect((await h.call('DELETE', `${notes}/${note.id}`, { ns })).status).toBe(204);

    const common = {
      noteId: note.id,
      noteType: null,
      discussionId: expect.any(String) as string,
      body: 'Second',
      system: false,
      createdAt: note.created_at,
      noteableType: 'Issue',
      noteableId: note.noteable_id,
      noteableIid: 1,
      commitId: null,
      targetTitle: 'Broken',
      audience: expect.objectContaining({ internal: false, confidential: false }) as object,
      authorId: DEVELOPER.id,
      updatedAt: edited.updated_at,
      // What a webhook payload shows of the author (hooks builds a new comment's payload from its event).
      authorAvatarUrl: note.author.avatar_url,
    };
    const [updated] = await eventsOf(EVENTS.noteUpdated, ns.id);
    expect(updated!.actor).toMatchObject({ id: DEVELOPER.id });
    expect(noteChangedData.parse(updated!.data)).toEqual(common);
    const [deleted] = await eventsOf(EVENTS.noteDeleted, ns.id);
    expect(deleted!.actor).toMatchObject({ id: OWNER.id });
    expect(noteChangedData.parse(deleted!.data)).toEqual(common);
    const [created] = await eventsOf(EVENTS.noteCreated, ns.id);
    expect(created!.data).toMatchObject({ body: 'First', authorAvatarUrl: note.author.avatar_url });
  });

  it('When an internal note is edited through the Discussions API, then its event says it is internal', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Secret' } });
    const note = noteEntity.parse(
      (
        await h.call('POST', `/projects/${ns.id}/issues/1/notes`, {
          ns,
          json: { body: 'Hidden', internal: true },
        })
      ).body,
    );
    const found = await h.call('GET', `/projects/${ns.id}/issues/1/discussions`, { ns });
    const discussionId = (found.body as { id: string }[])[0]!.id;
    const res = await h.call(
      'PUT',
      `/projects/${ns.id}/issues/1/discussions/${discussionId}/notes/${note.id}`,
      { ns, json: { body: 'Still hidden' } },
    );
    expect(res.status).toBe(200);
    const [updated] = await eventsOf(EVENTS.noteUpdated, ns.id);
    expect(noteChangedData.parse(updated!.data)).toMatchObject({
      body: 'Still hidden',
      audience: { internal: true },
    });
  });
});
