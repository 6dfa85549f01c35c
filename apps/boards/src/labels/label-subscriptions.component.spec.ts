import { z } from 'zod';
import { labelEntity, messageError } from '@gl/contracts';
import { DEVELOPER, GUEST, STRANGER, useHarness } from '@gl/testing';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';

describe('Subscriptions to group labels', () => {
  const h = useHarness(startBoardsHarness);

  async function labelIn(ns: ReturnType<typeof groupNamespace>, name: string) {
    const res = await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name, color: '#FF0000' } });
    expect(res.status).toBe(201);
    return labelEntity.parse(res.body);
  }

  it('When a member subscribes by id and by title, then 201 with subscribed, 304 when nothing changes, and reads show it to that caller only', async () => {
    const ns = groupNamespace();
    const label = await labelIn(ns, 'bug');
    expect(label.subscribed).toBe(false);
    const p = `/groups/${ns.id}/labels`;
    const first = await h.call('POST', `${p}/${label.id}/subscribe`, { ns, as: GUEST });
    expect(first.status).toBe(201);
    expect(labelEntity.parse(first.body)).toMatchObject({ id: label.id, name: 'bug', subscribed: true });
    const again = await h.call('POST', `${p}/bug/subscribe`, { ns, as: GUEST });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    const mine = await h.call('GET', `${p}/${label.id}`, { ns, as: GUEST });
    expect(labelEntity.parse(mine.body).subscribed).toBe(true);
    const theirs = await h.call('GET', `${p}/${label.id}`, { ns, as: DEVELOPER });
    expect(labelEntity.parse(theirs.body).subscribed).toBe(false);
    await labelIn(ns, 'feature');
    const list = await h.call('GET', p, { ns, as: GUEST });
    expect(
      z
        .array(labelEntity)
        .parse(list.body)
        .map((l) => [l.name, l.subscribed]),
    ).toEqual([
      ['bug', true],
      ['feature', false],
    ]);

    const off = await h.call('POST', `${p}/bug/unsubscribe`, { ns, as: GUEST });
    expect(off.status).toBe(201);
    expect(labelEntity.parse(off.body).subscribed).toBe(false);
    expect((await h.call('POST', `${p}/${label.id}/unsubscribe`, { ns, as: GUEST })).status).toBe(304);

    // The label's subscriptions go with it.
    const stored = () =>
      h.runtime.connection.collection('label_subscriptions').countDocuments({ labelId: label.id });
    expect(await stored()).toBe(1);
    expect((await h.call('DELETE', `${p}/bug`, { ns })).status).toBe(204);
    expect(await stored()).toBe(0);
  });

  it('When the label or group is unknown or the caller anonymous, then 404 and 401 as GitLab', async () => {
    const ns = groupNamespace({ visibility: 'private' });
    const label = await labelIn(ns, 'bug');
    const p = `/groups/${ns.id}/labels`;
    const unknown = await h.call('POST', `${p}/nope/subscribe`, { ns });
    expect(unknown.status).toBe(404);
    expect(messageError.parse(unknown.body).message).toBe('404 Label Not Found');
    expect((await h.call('POST', `${p}/99999/unsubscribe`, { ns })).status).toBe(404);
    const stranger = await h.call('POST', `${p}/${label.id}/subscribe`, { ns, as: STRANGER });
    expect(stranger.status).toBe(404);
    expect(messageError.parse(stranger.body).message).toBe('404 Group Not Found');
    const anonymous = await h.call('POST', `${p}/${label.id}/subscribe`, { ns, as: null });
    expect(anonymous.status).toBe(401);
    expect(messageError.parse(anonymous.body).message).toBe('401 Unauthorized');
  });
});
