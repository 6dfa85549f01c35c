import { DOMAIN_EVENT_TYPES, milestoneEntity, targetEventData } from '@gl/contracts';
import { z } from 'zod';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';
import { GUEST, REPORTER, STRANGER, useHarness } from '@gl/testing';

const milestones = z.array(milestoneEntity);

describe('Group milestones API', () => {
  const h = useHarness(startBoardsHarness);

  it('When a reporter creates milestones, then each gets the next iid of its group and the GitLab shape', async () => {
    const ns = groupNamespace();
    const first = await h.call('POST', `/groups/${ns.id}/milestones`, {
      ns,
      as: REPORTER,
      json: { title: 'v1', description: 'first', due_date: '2026-12-31', start_date: '2026-12-01' },
    });
    expect(first.status).toBe(201);
    const m1 = milestoneEntity.parse(first.body);
    expect(m1).toMatchObject({
      iid: 1,
      group_id: ns.id,
      title: 'v1',
      description: 'first',
      state: 'active',
      due_date: '2026-12-31',
      start_date: '2026-12-01',
      web_url: `${ns.webUrl}/-/milestones/1`,
    });
    const m2 = milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'v2' } })).body,
    );
    expect(m2).toMatchObject({ iid: 2, description: '', due_date: null, start_date: null });
    const other = groupNamespace();
    const m3 = milestoneEntity.parse(
      (await h.call('POST', `/groups/${other.id}/milestones`, { ns: other, json: { title: 'v1' } })).body,
    );
    expect(m3.iid).toBe(1);
  });

  it('When a title is taken or missing, then it answers 400', async () => {
    const ns = groupNamespace();
    await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 't' } });
    const taken = await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 't' } });
    expect(taken).toMatchObject({ status: 400, body: { message: { title: ['has already been taken'] } } });
    const missing = await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'title is missing' } });
  });

  it('When a milestone is renamed to a title already in use, then 400 and it keeps its title (it was a 500)', async () => {
    const ns = groupNamespace();
    await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'taken' } });
    const other = milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'free' } })).body,
    );
    const renamed = await h.call('PUT', `/groups/${ns.id}/milestones/${other.id}`, {
      ns,
      json: { title: 'taken' },
    });
    expect(renamed).toMatchObject({ status: 400, body: { message: { title: ['has already been taken'] } } });
    const reread = await h.call('GET', `/groups/${ns.id}/milestones/${other.id}`, { ns });
    expect(reread.body).toMatchObject({ title: 'free' });
  });

  it('When a milestone is closed and activated, then its state follows and opened, closed and reopened events are published', async () => {
    const ns = groupNamespace();
    const m = milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'ev' } })).body,
    );
    const closed = await h.call('PUT', `/groups/${ns.id}/milestones/${m.id}`, {
      ns,
      json: { state_event: 'close' },
    });
    expect(milestoneEntity.parse(closed.body).state).toBe('closed');
    const reopened = await h.call('PUT', `/groups/${ns.id}/milestones/${m.id}`, {
      ns,
      json: { state_event: 'activate', title: 'ev2' },
    });
    expect(milestoneEntity.parse(reopened.body)).toMatchObject({ state: 'active', title: 'ev2' });
    const { milestoneOpened, milestoneClosed, milestoneReopened, milestoneDefined } =
      DOMAIN_EVENT_TYPES.boards;
    // The activity events; every write also defines the milestone (milestones.definitions spec).
    const mine = (await h.events()).filter((e) => e.groupId === ns.id && e.type !== milestoneDefined);
    expect(mine.map((e) => e.type).sort()).toEqual(
      [milestoneClosed, milestoneOpened, milestoneReopened].sort(),
    );
    for (const event of mine) {
      expect(targetEventData.parse(event.data)).toMatchObject({ targetId: m.id, targetIid: m.iid });
      expect(event.actor).toMatchObject({ username: 'owner' });
    }
  });

  it('When milestones are listed, then state, title, search and iids filter them, with pagination', async () => {
    const ns = groupNamespace();
    const ids: number[] = [];
    for (const title of ['alpha', 'beta', 'gamma']) {
      const m = milestoneEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title } })).body,
      );
      ids.push(m.id);
    }
    await h.call('PUT', `/groups/${ns.id}/milestones/${ids[1]}`, { ns, json: { state_event: 'close' } });
    const list = async (query: Record<string, string>) =>
      milestones
        .parse((await h.call('GET', `/groups/${ns.id}/milestones`, { ns, as: GUEST, query })).body)
        .map((m) => m.title);
    expect(await list({})).toEqual(['gamma', 'beta', 'alpha']);
    expect(await list({ state: 'closed' })).toEqual(['beta']);
    expect(await list({ title: 'alpha' })).toEqual(['alpha']);
    expect(await list({ search: 'AMM' })).toEqual(['gamma']);
    expect(await list({ 'iids[]': '1' })).toEqual(['alpha']);
    // The comma form, as for issues (Grape's CommaSeparatedToIntegerArray).
    expect(await list({ iids: '1,3' })).toEqual(['gamma', 'alpha']);
    const page = await h.call('GET', `/groups/${ns.id}/milestones`, {
      ns,
      query: { per_page: '1', page: '2' },
    });
    expect(page.headers.get('x-total')).toBe('3');
    expect(milestones.parse(page.body).map((m) => m.title)).toEqual(['beta']);
  });

  it("When a milestone is fetched, then it is returned; unknown or another group's → 404", async () => {
    const ns = groupNamespace();
    const m = milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'one' } })).body,
    );
    const res = await h.call('GET', `/groups/${ns.id}/milestones/${m.id}`, { ns });
    expect(milestoneEntity.parse(res.body).id).toBe(m.id);
    const other = groupNamespace();
    const foreign = await h.call('GET', `/groups/${other.id}/milestones/${m.id}`, { ns: other });
    expect(foreign).toMatchObject({ status: 404, body: { message: '404 Milestone Not Found' } });
  });

  it('When an update has nothing to change or an invalid state_event, then it answers 400', async () => {
    const ns = groupNamespace();
    const m = milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'u' } })).body,
    );
    const none = await h.call('PUT', `/groups/${ns.id}/milestones/${m.id}`, { ns, json: {} });
    expect(none.status).toBe(400);
    const bad = await h.call('PUT', `/groups/${ns.id}/milestones/${m.id}`, {
      ns,
      json: { state_event: 'reopen' },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: 'state_event does not have a valid value' } });
  });

  it('When the due date precedes the start date, then it answers 400 on create and update', async () => {
    const ns = groupNamespace();
    const error = { message: { due_date: ['must be greater than start date'] } };
    const created = await h.call('POST', `/groups/${ns.id}/milestones`, {
      ns,
      json: { title: 'd', start_date: '2026-05-02', due_date: '2026-05-01' },
    });
    expect(created).toMatchObject({ status: 400, body: error });
    const m = milestoneEntity.parse(
      (
        await h.call('POST', `/groups/${ns.id}/milestones`, {
          ns,
          json: { title: 'd', start_date: '2026-05-02' },
        })
      ).body,
    );
    const updated = await h.call('PUT', `/groups/${ns.id}/milestones/${m.id}`, {
      ns,
      json: { due_date: '2026-04-01' },
    });
    expect(updated).toMatchObject({ status: 400, body: error });
  });

  it('When a guest writes or a stranger reads a private group, then it answers 403 and 404', async () => {
    const ns = groupNamespace();
    const write = await h.call('POST', `/groups/${ns.id}/milestones`, {
      ns,
      as: GUEST,
      json: { title: 'g' },
    });
    expect(write.status).toBe(403);
    const read = await h.call('GET', `/groups/${ns.id}/milestones`, { ns, as: STRANGER });
    expect(read).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });
});
