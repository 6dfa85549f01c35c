import { EVENT_TYPES, boardEntity, boardListEntity } from '@gl/contracts';
import { GHOST_USER, gravatarUrl, type ServiceInstance } from '@gl/service-kit';
import { gatewayEvent, useHarness, userEventFields } from '@gl/testing';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';

describe('Boards: the users copy (identity events)', () => {
  const h = useHarness(startBoardsHarness);
  // The harness's app instance (the users subscription is its first), as its addUser reaches it.
  const users = () => (h as unknown as { instance: ServiceInstance }).instance.subscriptions![0]!;
  const handle = (type: string, data: Record<string, unknown>) => users().handle(gatewayEvent(type, data));

  async function assigneeList(userId: number) {
    const ns = groupNamespace();
    const board = boardEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'B' } })).body,
    );
    const base = `/groups/${ns.id}/boards/${board.id}/lists`;
    const created = await h.call('POST', base, { ns, json: { assignee_id: userId } });
    expect(created.status).toBe(201);
    const list = boardListEntity.parse(created.body);
    return {
      read: async () => boardListEntity.parse((await h.call('GET', `${base}/${list.id}`, { ns })).body),
    };
  }

  it("When a user event carries the address, then assignee lists show the gateway's Gravatar avatar_url", async () => {
    const id = 7101;
    await handle(EVENT_TYPES.identity.userCreated, userEventFields({ id, email: 'Ann.B@Example.com' }));
    const list = await assigneeList(id);
    expect((await list.read()).assignee).toMatchObject({
      id,
      avatar_url: gravatarUrl('ann.b@example.com'),
    });
  });

  it('When the user is destroyed, then their list shows the Ghost User; a redelivered or late event changes nothing', async () => {
    const id = 7102;
    const created = userEventFields({ id });
    await handle(EVENT_TYPES.identity.userCreated, created);
    const list = await assigneeList(id);
    const destroyed = gatewayEvent(EVENT_TYPES.identity.userDestroyed, {
      userId: id,
      username: created.username,
      hardDelete: false,
    });
    await users().handle(destroyed);
    await users().handle(destroyed);
    // An update published before the deletion, delivered after it, does not bring the user back.
    await handle(EVENT_TYPES.identity.userUpdated, { ...created, name: 'Late' });
    expect((await list.read()).assignee).toMatchObject({
      id: GHOST_USER.id,
      username: 'ghost',
      name: 'Ghost User',
      avatar_url: gravatarUrl('ghost@example.com'),
    });
    // A deleted user can no longer be the target of a new list.
    const ns = groupNamespace();
    const board = boardEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'C' } })).body,
    );
    const again = await h.call('POST', `/groups/${ns.id}/boards/${board.id}/lists`, {
      ns,
      json: { assignee_id: id },
    });
    expect(again).toMatchObject({ status: 400, body: { message: { error: 'Assignee not found' } } });
  });
});
