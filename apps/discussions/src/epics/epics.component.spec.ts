import { discussionEntity, epicEntity, messageError, paramError } from '@gl/contracts';
import { z } from 'zod';
import { GUEST, OWNER, MAINTAINER, REPORTER, useHarness } from '@gl/testing';
import { groupNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

describe('Epics: PUT and DELETE', () => {
  const h = useHarness(startDiscussionsHarness);

  async function epicIn(ns: ReturnType<typeof groupNamespace>, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/groups/${ns.id}/epics`, { ns, json: { title: 'Epic', ...json } });
    expect(res.status).toBe(201);
    return epicEntity.parse(res.body);
  }

  it('When a Reporter changes title, labels, confidential and dates, then the epic shows them', async () => {
    const ns = groupNamespace();
    const epic = await epicIn(ns, { labels: 'a,b' });
    expect(epic).toMatchObject({ start_date: null, start_date_is_fixed: false, due_date: null });
    const res = await h.call('PUT', `/groups/${ns.id}/epics/${epic.iid}`, {
      ns,
      as: REPORTER,
      json: {
        title: 'Renamed',
        add_labels: 'c',
        remove_labels: 'a',
        confidential: true,
        start_date_fixed: '2024-03-01T10:00:00Z',
        start_date_is_fixed: true,
        end_date: '2024-04-30',
      },
    });
    expect(res.status).toBe(200);
    expect(epicEntity.parse(res.body)).toMatchObject({
      title: 'Renamed',
      labels: ['b', 'c'],
      confidential: true,
      start_date: '2024-03-01',
      start_date_fixed: '2024-03-01',
      start_date_is_fixed: true,
      due_date: '2024-04-30',
      end_date: '2024-04-30',
      due_date_is_fixed: true,
    });
    const unfixed = await h.call('PUT', `/groups/${ns.id}/epics/${epic.iid}`, {
      ns,
      json: { start_date_is_fixed: false },
    });
    expect(epicEntity.parse(unfixed.body)).toMatchObject({
      start_date: null,
      start_date_fixed: '2024-03-01',
    });
  });

  it('When an epic is closed and reopened, then its state, closed_at and system notes follow', async () => {
    const ns = groupNamespace();
    const epic = await epicIn(ns);
    const p = `/groups/${ns.id}/epics/${epic.iid}`;
    const closed = epicEntity.parse((await h.call('PUT', p, { ns, json: { state_event: 'close' } })).body);
    expect(closed.state).toBe('closed');
    expect(closed.closed_at).not.toBeNull();
    const reopened = epicEntity.parse((await h.call('PUT', p, { ns, json: { state_event: 'reopen' } })).body);
    expect(reopened).toMatchObject({ state: 'opened', closed_at: null });
    const threads = z
      .array(discussionEntity)
      .parse((await h.call('GET', `/groups/${ns.id}/epics/${epic.id}/discussions`, { ns })).body);
    expect(threads.map((t) => t.notes[0]!.body)).toEqual(['closed', 'reopened']);
  });

  it('When the request is wrong, then 400; a Guest or an unknown iid 403; free tier 403; anonymous 401', async () => {
    const ns = groupNamespace();
    const epic = await epicIn(ns);
    const p = `/groups/${ns.id}/epics/${epic.iid}`;
    const none = await h.call('PUT', p, { ns, json: {} });
    expect(none.status).toBe(400);
    expect(paramError.parse(none.body).error).toMatch(
      /^add_labels, confidential, .* are missing, at least one/,
    );
    const badDate = await h.call('PUT', p, { ns, json: { due_date_fixed: '2024-02-30' } });
    expect(paramError.parse(badDate.body)).toEqual({ error: 'due_date_fixed is invalid' });
    const guest = await h.call('PUT', p, { ns, as: GUEST, json: { title: 'x' } });
    expect(guest.status).toBe(403);
    expect(messageError.parse(guest.body)).toEqual({ message: '403 Forbidden' });
    expect((await h.call('PUT', `/groups/${ns.id}/epics/999`, { ns, json: { title: 'x' } })).status).toBe(
      403,
    );
    expect((await h.call('PUT', p, { ns, tier: 'free', json: { title: 'x' } })).status).toBe(403);
    expect((await h.call('PUT', p, { ns, as: null, json: { title: 'x' } })).status).toBe(401);
  });

  it('When an epic is deleted, then a Maintainer gets 403 and the Owner 204; it is gone', async () => {
    const ns = groupNamespace();
    const epic = await epicIn(ns);
    const p = `/groups/${ns.id}/epics/${epic.iid}`;
    // Epic notes are addressed by the epic's id (lib/api/notes.rb: noteable_id).
    await h.call('POST', `/groups/${ns.id}/epics/${epic.id}/notes`, { ns, json: { body: 'note' } });
    expect((await h.call('DELETE', p, { ns, as: MAINTAINER })).status).toBe(403);
    expect((await h.call('DELETE', p, { ns, as: OWNER })).status).toBe(204);
    expect((await h.call('GET', p, { ns })).status).toBe(403);
    expect(await h.runtime.connection.collection('notes').countDocuments({ noteableId: epic.id })).toBe(0);
  });
});
