import { z } from 'zod';
import { issueEntity } from '@gl/contracts';
import { GUEST, REPORTER, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const answer = issueEntity.extend({ subscribed: z.boolean() });

/**
 * A caller who is neither author nor assignee: `subscribed` and user_notes_count come from one read of the
 * notes (participation.ts), and must answer as the participants and the count did.
 */
describe('subscribed and user_notes_count from the notes the caller reads', () => {
  const h = useHarness(startDiscussionsHarness);

  it('When comments, internal notes, system notes and mentions come and go, then the count and subscribed follow', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Plan' } });
    const p = `/projects/${ns.id}/issues/1`;
    const view = async (as: typeof GUEST) => answer.parse((await h.call('GET', p, { ns, as })).body);
    const note = async (body: string, internal = false) => {
      const res = await h.call('POST', `${p}/notes`, { ns, json: { body, internal } });
      expect(res.status).toBe(201);
      return (res.body as { id: number }).id;
    };
    expect(await view(GUEST)).toMatchObject({ user_notes_count: 0, subscribed: false });

    // An internal mention: counted and taking part only for who reads internal notes.
    await note(`for @${GUEST.username} and @${REPORTER.username}`, true);
    expect(await view(GUEST)).toMatchObject({ user_notes_count: 0, subscribed: false });
    expect(await view(REPORTER)).toMatchObject({ user_notes_count: 1, subscribed: true });

    // A public mention as written in capitals names the user as the participants' lookup does.
    const mention = await note(`cc @${GUEST.username.toUpperCase()}`);
    expect(await view(GUEST)).toMatchObject({ user_notes_count: 1, subscribed: true });
    expect(await view(REPORTER)).toMatchObject({ user_notes_count: 2 });

    // A system note (a label change) is no comment.
    await h.call('PUT', p, { ns, json: { labels: 'bug' } });
    expect(await view(GUEST)).toMatchObject({ user_notes_count: 1, subscribed: true });

    expect((await h.call('DELETE', `${p}/notes/${mention}`, { ns })).status).toBe(204);
    expect(await view(GUEST)).toMatchObject({ user_notes_count: 0, subscribed: false });

    // Commenting makes the guest take part; an explicit choice still wins.
    await h.call('POST', `${p}/notes`, { ns, as: GUEST, json: { body: 'me too' } });
    expect(await view(GUEST)).toMatchObject({ user_notes_count: 1, subscribed: true });
    expect((await h.call('POST', `${p}/unsubscribe`, { ns, as: GUEST })).status).toBe(201);
    expect(await view(GUEST)).toMatchObject({ user_notes_count: 1, subscribed: false });
  });

  it('When the caller is mentioned in the description, then subscribed', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'Ask', description: `@${GUEST.username} please look` },
    });
    const res = await h.call('GET', `/projects/${ns.id}/issues/1`, { ns, as: GUEST });
    expect(answer.parse(res.body)).toMatchObject({ user_notes_count: 0, subscribed: true });
  });
});
