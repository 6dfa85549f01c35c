import type { NamespaceContext } from '@gl/contracts';
import { boardEntity, boardListEntity, iterationEntity } from '@gl/contracts';
import { z } from 'zod';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';
import { DEVELOPER, GUEST, REPORTER, STRANGER, useHarness } from '@gl/testing';

const iterations = z.array(iterationEntity);
type Iteration = z.infer<typeof iterationEntity>;

/** The day `offset` days from today (UTC), as the API writes dates. */
function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Group iterations: GET /groups/:id/iterations as ee/lib/api/iterations.rb answers it, our POST with
 * Iteration's validations, and iteration lists on boards.
 */
describe('Group iterations', () => {
  const h = useHarness(startBoardsHarness);

  async function create(ns: NamespaceContext, json: Record<string, unknown>): Promise<Iteration> {
    const res = await h.call('POST', `/groups/${ns.id}/iterations`, { ns, json });
    expect(res.status).toBe(201);
    return iterationEntity.parse(res.body);
  }

  async function list(ns: NamespaceContext, query: Record<string, string> = {}) {
    const res = await h.call('GET', `/groups/${ns.id}/iterations`, { ns, query });
    expect(res.status).toBe(200);
    return { items: iterations.parse(res.body), res };
  }

  describe('creating', () => {
    it('When an iteration is created, then 201 with the entity, its state from the dates and its link', async () => {
      const ns = groupNamespace();
      const current = await create(ns, {
        title: ' Sprint 1 ',
        description: 'Goals',
        start_date: day(-3),
        due_date: day(4),
      });
      expect(current).toMatchObject({
        iid: 1,
        sequence: 1,
        group_id: ns.id,
        title: 'Sprint 1',
        description: 'Goals',
        state: 2,
        start_date: day(-3),
        due_date: day(4),
        web_url: `http://localhost/groups/${ns.fullPath}/-/iterations/${current.id}`,
      });
      const upcoming = await create(ns, { start_date: day(10), due_date: day(20) });
      expect(upcoming).toMatchObject({ iid: 2, sequence: 2, title: null, description: null, state: 1 });
      const closed = await create(ns, { title: 'Old', start_date: day(-30), due_date: day(-20) });
      expect(closed).toMatchObject({ iid: 3, sequence: 1, state: 3 });
      // The earlier iteration moved the others along the cadence.
      const { items } = await list(ns);
      expect(items.map((i) => [i.id, i.sequence])).toEqual([
        [closed.id, 1],
        [current.id, 2],
        [upcoming.id, 3],
      ]);
    });

    it('When the due date is not after the start date, then 400 on due_date', async () => {
      const ns = groupNamespace();
      for (const due_date of [day(5), day(4)]) {
        const res = await h.call('POST', `/groups/${ns.id}/iterations`, {
          ns,
          json: { start_date: day(5), due_date },
        });
        expect(res).toMatchObject({
          status: 400,
          body: { message: { due_date: ['must be greater than start date'] } },
        });
      }
    });

    it('When the dates overlap another iteration of the cadence (a shared day too), then 400 on base', async () => {
      const ns = groupNamespace();
      await create(ns, { start_date: day(1), due_date: day(7) });
      for (const [start_date, due_date] of [
        [day(7), day(14)],
        [day(-5), day(1)],
        [day(2), day(3)],
        [day(-5), day(30)],
      ]) {
        const res = await h.call('POST', `/groups/${ns.id}/iterations`, {
          ns,
          json: { start_date, due_date },
        });
        expect(res).toMatchObject({
          status: 400,
          body: {
            message: {
              base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'],
            },
          },
        });
      }
      await create(ns, { start_date: day(8), due_date: day(14) });
    });

    it('When the title is taken in the cadence, then 400 on title; untitled iterations are many', async () => {
      const ns = groupNamespace();
      await create(ns, { title: 'S', start_date: day(1), due_date: day(2) });
      const res = await h.call('POST', `/groups/${ns.id}/iterations`, {
        ns,
        json: { title: 'S', start_date: day(3), due_date: day(4) },
      });
      expect(res).toMatchObject({
        status: 400,
        body: { message: { title: ['already being used for another iteration within this cadence.'] } },
      });
      await create(ns, { start_date: day(5), due_date: day(6) });
      await create(ns, { title: '  ', start_date: day(7), due_date: day(8) });
    });

    it('When a date is missing, not a day or over 500 years ahead, then 400', async () => {
      const ns = groupNamespace();
      const post = (json: unknown) => h.call('POST', `/groups/${ns.id}/iterations`, { ns, json });
      expect(await post({ due_date: day(1) })).toMatchObject({
        status: 400,
        body: { error: 'start_date is missing' },
      });
      expect(await post({ start_date: '2027-02-30', due_date: '2027-03-02' })).toMatchObject({
        status: 400,
        body: { error: 'start_date is invalid' },
      });
      expect(await post({ start_date: '9000-01-01', due_date: '9000-01-02' })).toMatchObject({
        status: 400,
        body: {
          message: {
            start_date: ['cannot be more than 500 years in the future'],
            due_date: ['cannot be more than 500 years in the future'],
          },
        },
      });
    });

    it('When many overlapping iterations are created at once, then exactly one gets in', async () => {
      const ns = groupNamespace();
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          h.call('POST', `/groups/${ns.id}/iterations`, {
            ns,
            json: { title: `T${i}`, start_date: day(1 + i), due_date: day(20) },
          }),
        ),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
      expect((await list(ns)).items).toHaveLength(1);
    });

    it('When an unknown or foreign cadence is named, then 404 "Iteration Cadence Not Found"', async () => {
      const ns = groupNamespace();
      const res = await h.call('POST', `/groups/${ns.id}/iterations`, {
        ns,
        json: { start_date: day(1), due_date: day(2), iteration_cadence_id: 987654 },
      });
      expect(res).toMatchObject({ status: 404, body: { message: '404 Iteration Cadence Not Found' } });
    });

    it('When a guest, a stranger, nobody or the free tier creates, then 403, 404, 401, 403', async () => {
      const ns = groupNamespace();
      const path = `/groups/${ns.id}/iterations`;
      const json = { start_date: day(1), due_date: day(2) };
      expect(await h.call('POST', path, { ns, as: GUEST, json })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      });
      expect(await h.call('POST', path, { ns, as: STRANGER, json })).toMatchObject({
        status: 404,
        body: { message: '404 Group Not Found' },
      });
      expect((await h.call('POST', path, { ns, as: null, json })).status).toBe(401);
      expect((await h.call('POST', path, { ns, tier: 'free', json })).status).toBe(403);
      expect((await h.call('POST', path, { ns, as: REPORTER, json })).status).toBe(201);
    });
  });

  describe('listing', () => {
    async function threeStates(ns: NamespaceContext) {
      const closed = await create(ns, { title: 'closed one', start_date: day(-20), due_date: day(-10) });
      const current = await create(ns, { title: 'current one', start_date: day(-1), due_date: day(1) });
      const upcoming = await create(ns, { title: 'next version 2', start_date: day(5), due_date: day(9) });
      return { closed, current, upcoming };
    }

    it('When filtered by state, then each state answers its iterations; opened is upcoming and current', async () => {
      const ns = groupNamespace();
      const { closed, current, upcoming } = await threeStates(ns);
      const ids = async (state?: string) => (await list(ns, state ? { state } : {})).items.map((i) => i.id);
      expect(await ids()).toEqual([closed.id, current.id, upcoming.id]);
      expect(await ids('all')).toEqual([closed.id, current.id, upcoming.id]);
      expect(await ids('opened')).toEqual([current.id, upcoming.id]);
      expect(await ids('upcoming')).toEqual([upcoming.id]);
      expect(await ids('current')).toEqual([current.id]);
      expect(await ids('started')).toEqual([current.id]);
      expect(await ids('closed')).toEqual([closed.id]);
      const bad = await h.call('GET', `/groups/${ns.id}/iterations`, { ns, query: { state: 'done' } });
      expect(bad).toMatchObject({ status: 400, body: { error: 'state does not have a valid value' } });
    });

    it('When searched, then every word must be in the title (or the cadence title with in[])', async () => {
      const ns = groupNamespace();
      const { current, upcoming } = await threeStates(ns);
      const ids = async (query: Record<string, string>) => (await list(ns, query)).items.map((i) => i.id);
      expect(await ids({ search: 'ONE current' })).toEqual([current.id]);
      expect(await ids({ search: 'version 2' })).toEqual([upcoming.id]);
      expect(await ids({ search: 'nothing' })).toEqual([]);
      // The group's manual cadence is "<group name> Iterations".
      expect(await ids({ search: 'Iterations', 'in[]': 'cadence_title' })).toHaveLength(3);
      expect(await ids({ search: 'Iterations', in: 'title' })).toEqual([]);
      const bad = await h.call('GET', `/groups/${ns.id}/iterations`, {
        ns,
        query: { search: 'x', in: 'body' },
      });
      expect(bad).toMatchObject({ status: 400, body: { error: 'in does not have a valid value' } });
    });

    it('When updated_before or updated_after is given, then iterations are filtered by their update time', async () => {
      const ns = groupNamespace();
      const first = await create(ns, { start_date: day(1), due_date: day(2) });
      const ids = async (query: Record<string, string>) => (await list(ns, query)).items.map((i) => i.id);
      expect(await ids({ updated_after: first.updated_at })).toEqual([first.id]);
      expect(await ids({ updated_before: first.updated_at })).toEqual([first.id]);
      expect(await ids({ updated_after: '2999-01-01T00:00:00Z' })).toEqual([]);
      expect(await ids({ updated_before: '2001-01-01' })).toEqual([]);
      const bad = await h.call('GET', `/groups/${ns.id}/iterations`, {
        ns,
        query: { updated_before: 'soon' },
      });
      expect(bad).toMatchObject({ status: 400, body: { error: 'updated_before is invalid' } });
    });

    it("When a subgroup lists, then its ancestors' iterations come too unless include_ancestors=false", async () => {
      const parent = groupNamespace({ fullPath: 'top' });
      const child = groupNamespace({ fullPath: 'top/child', ancestorGroupIds: [parent.id] });
      const inherited = await create(parent, { start_date: day(1), due_date: day(2) });
      const own = await create(child, { start_date: day(1), due_date: day(2) });
      const { items } = await list(child);
      expect(items.map((i) => i.id)).toEqual([inherited.id, own.id]);
      expect(items[0]!.web_url).toBe(`http://localhost/groups/top/-/iterations/${inherited.id}`);
      expect(items[1]!.web_url).toBe(`http://localhost/groups/top/child/-/iterations/${own.id}`);
      expect((await list(child, { include_ancestors: 'false' })).items.map((i) => i.id)).toEqual([own.id]);
      expect((await list(parent)).items.map((i) => i.id)).toEqual([inherited.id]);
      const withDescendants = await list(parent, { include_descendants: 'true' });
      expect(withDescendants.items.map((i) => i.id).sort()).toEqual([inherited.id, own.id].sort());
    });

    it('When due dates are equal, then titles order them and untitled iterations come last', async () => {
      const parent = groupNamespace();
      const ns = groupNamespace({ ancestorGroupIds: [parent.id] });
      const untitled = await create(ns, { start_date: day(1), due_date: day(3) });
      const b = await create(parent, { title: 'b', start_date: day(2), due_date: day(3) });
      const a = await create(parent, { title: 'a', start_date: day(5), due_date: day(6) });
      const a2 = await create(ns, { title: 'a', start_date: day(4), due_date: day(6) });
      const { items } = await list(ns);
      expect(items.map((i) => i.id)).toEqual([b.id, untitled.id, a.id, a2.id]);
    });

    it('When paginated, then per_page pages come with X-Total and Link', async () => {
      const ns = groupNamespace();
      for (let i = 0; i < 3; i++) await create(ns, { start_date: day(i * 2 + 1), due_date: day(i * 2 + 2) });
      const { items, res } = await list(ns, { per_page: '2', page: '2' });
      expect(items.map((i) => i.sequence)).toEqual([3]);
      expect(res.headers.get('x-total')).toBe('3');
      expect(res.headers.get('link')).toContain('rel="prev"');
    });

    it('When the free tier, a stranger or nobody reads, then 403, 404, 404; public groups are readable', async () => {
      const ns = groupNamespace();
      const path = `/groups/${ns.id}/iterations`;
      expect(await h.call('GET', path, { ns, tier: 'free' })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      });
      expect((await h.call('GET', path, { ns, as: STRANGER })).status).toBe(404);
      expect((await h.call('GET', path, { ns, as: null })).status).toBe(404);
      expect((await h.call('GET', path, { ns, as: GUEST })).status).toBe(200);
      const open = groupNamespace({ visibility: 'public' });
      expect((await h.call('GET', `/groups/${open.id}/iterations`, { ns: open, as: null })).status).toBe(200);
    });
  });

  describe('iteration lists', () => {
    it('When a list is made for an iteration of the group or an ancestor, then it shows the iteration', async () => {
      const parent = groupNamespace();
      const ns = groupNamespace({ ancestorGroupIds: [parent.id] });
      const inherited = await create(parent, { title: 'Up', start_date: day(1), due_date: day(2) });
      const own = await create(ns, { title: 'Mine', start_date: day(1), due_date: day(2) });
      const board = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'It' } })).body,
      );
      const base = `/groups/${ns.id}/boards/${board.id}/lists`;
      const made = [];
      for (const iteration of [own, inherited]) {
        const res = await h.call('POST', base, { ns, as: REPORTER, json: { iteration_id: iteration.id } });
        expect(res.status).toBe(201);
        made.push(boardListEntity.parse(res.body));
      }
      expect(made[0]).toMatchObject({ label: null, position: 0, iteration: { id: own.id, title: 'Mine' } });
      expect(made[1]!.iteration).toMatchObject({ id: inherited.id, group_id: parent.id });
      const shown = boardEntity.parse(
        (await h.call('GET', `/groups/${ns.id}/boards/${board.id}`, { ns })).body,
      );
      expect(shown.lists.map((l) => l.iteration?.id)).toEqual([own.id, inherited.id]);
      const again = await h.call('POST', base, { ns, json: { iteration_id: own.id } });
      expect(again).toMatchObject({
        status: 400,
        body: { message: { error: 'Iteration has already been taken' } },
      });
    });

    it("When the iteration is unknown or another group's, then 400 Iteration not found", async () => {
      const ns = groupNamespace();
      const other = groupNamespace();
      const foreign = await create(other, { start_date: day(1), due_date: day(2) });
      const board = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'It' } })).body,
      );
      for (const iteration_id of [foreign.id, 987654]) {
        const res = await h.call('POST', `/groups/${ns.id}/boards/${board.id}/lists`, {
          ns,
          json: { iteration_id },
        });
        expect(res).toMatchObject({ status: 400, body: { message: { error: 'Iteration not found' } } });
      }
      const guest = await h.call('POST', `/groups/${ns.id}/boards/${board.id}/lists`, {
        ns,
        as: GUEST,
        json: { iteration_id: foreign.id },
      });
      expect(guest.status).toBe(403);
    });

    it('When the group is on the free tier, then an iteration list is refused: label_id is missing', async () => {
      const ns = groupNamespace();
      await h.addUser(DEVELOPER);
      const [board] = z
        .array(boardEntity)
        .parse((await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier: 'free' })).body);
      const res = await h.call('POST', `/groups/${ns.id}/boards/${board!.id}/lists`, {
        ns,
        tier: 'free',
        json: { iteration_id: 1 },
      });
      expect(res).toMatchObject({ status: 400, body: { error: 'label_id is missing' } });
    });
  });
});
