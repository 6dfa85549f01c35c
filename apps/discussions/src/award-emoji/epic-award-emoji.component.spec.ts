import { awardEmojiEntity, epicEntity, noteEntity } from '@gl/contracts';
import { z } from 'zod';
import { DEVELOPER, GUEST, OWNER, STRANGER, useHarness } from '@gl/testing';
import { groupNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const awardsOf = z.array(awardEmojiEntity);

/**
 * Award emoji on epics and their notes (ee/lib/ee/api/helpers/award_emoji.rb: `/groups/:id/epics/:epic_iid`,
 * a higher tier): the epic found by iid as the epics API finds it, then the same rules as every awardable.
 */
describe('Award emoji on epics', () => {
  const h = useHarness(startDiscussionsHarness);

  async function epicIn(ns: ReturnType<typeof groupNamespace>, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/groups/${ns.id}/epics`, { ns, json: { title: 'Epic', ...json } });
    expect(res.status).toBe(201);
    return epicEntity.parse(res.body);
  }

  it('When users award an epic and its comment, then the awards list, read back and go with the epic', async () => {
    const ns = groupNamespace({ visibility: 'public' });
    const epic = await epicIn(ns);
    const p = `/groups/${ns.id}/epics/${epic.iid}`;
    const given = await h.call('POST', `${p}/award_emoji`, { ns, as: DEVELOPER, json: { name: '+1' } });
    expect(given.status).toBe(201);
    expect(awardEmojiEntity.parse(given.body)).toMatchObject({
      name: 'thumbsup',
      awardable_id: epic.id,
      awardable_type: 'Epic',
      user: { id: DEVELOPER.id },
    });
    const again = await h.call('POST', `${p}/award_emoji`, { ns, as: DEVELOPER, json: { name: 'thumbsup' } });
    expect(again).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name has already been taken Not Found' },
    });

    // The epic counts the vote (EE::API::Entities::Epic `upvotes`), and a thumbsdown beside it.
    expect(
      (await h.call('POST', `${p}/award_emoji`, { ns, as: GUEST, json: { name: 'thumbsdown' } })).status,
    ).toBe(201);
    expect(epicEntity.parse((await h.call('GET', p, { ns })).body)).toMatchObject({
      upvotes: 1,
      downvotes: 1,
    });

    const listed = await h.call('GET', `${p}/award_emoji`, { ns, as: null });
    expect(listed.status).toBe(200);
    expect(awardsOf.parse(listed.body).map((a) => a.name)).toEqual(['thumbsup', 'thumbsdown']);

    // Epic notes are addressed by the epic's id; their awards by the epic's iid.
    const note = noteEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/epics/${epic.id}/notes`, { ns, json: { body: 'A comment' } }))
        .body,
    );
    const onNote = await h.call('POST', `${p}/notes/${note.id}/award_emoji`, {
      ns,
      as: GUEST,
      json: { name: 'tada' },
    });
    expect(onNote.status).toBe(201);
    expect(awardEmojiEntity.parse(onNote.body)).toMatchObject({
      awardable_id: note.id,
      awardable_type: 'Note',
    });

    const award = awardEmojiEntity.parse(given.body);
    expect((await h.call('DELETE', `${p}/award_emoji/${award.id}`, { ns, as: STRANGER })).status).toBe(401);
    expect((await h.call('DELETE', `${p}/award_emoji/${award.id}`, { ns, as: DEVELOPER })).status).toBe(204);
    expect((await h.call('GET', `${p}/award_emoji/${award.id}`, { ns })).status).toBe(404);

    expect((await h.call('DELETE', p, { ns, as: OWNER })).status).toBe(204);
    expect(
      await h.runtime.connection.collection('award_emoji').countDocuments({ awardableId: note.id }),
    ).toBe(0);
  });

  it('When the epic is unknown, confidential to the caller or the tier is free, then 404 Epic Not Found', async () => {
    const ns = groupNamespace({ visibility: 'public' });
    const secret = await epicIn(ns, { confidential: true });
    const notFound = { status: 404, body: { message: '404 Epic Not Found' } };
    expect(await h.call('GET', `/groups/${ns.id}/epics/999999/award_emoji`, { ns })).toMatchObject(notFound);
    expect(
      await h.call('GET', `/groups/${ns.id}/epics/${secret.iid}/award_emoji`, { ns, as: STRANGER }),
    ).toMatchObject(notFound);
    const open = await epicIn(ns);
    expect(
      await h.call('GET', `/groups/${ns.id}/epics/${open.iid}/award_emoji`, { ns, tier: 'free' }),
    ).toMatchObject(notFound);
    const anonymous = await h.call('POST', `/groups/${ns.id}/epics/${open.iid}/award_emoji`, {
      ns,
      as: null,
      json: { name: 'tada' },
    });
    expect(anonymous.status).toBe(401);
  });
});
