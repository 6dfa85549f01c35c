import { DOMAIN_EVENT_TYPES, milestoneDefinedData, milestoneEntity } from '@gl/contracts';
import { useHarness } from '@gl/testing';
import { milestoneDefinitionsMigration } from '../migrations/milestone-definitions';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';

const { milestoneDefined } = DOMAIN_EVENT_TYPES.boards;

describe('Group milestones as defined (gl.boards.milestone.defined)', () => {
  const h = useHarness(startBoardsHarness);

  /** The milestone's definitions, by revision. */
  async function definitions(milestoneId: number) {
    return (await h.events())
      .filter((e) => e.type === milestoneDefined)
      .map((e) => milestoneDefinedData.parse(e.data))
      .filter((d) => d.milestoneId === milestoneId)
      .sort((a, b) => a.revision - b.revision);
  }

  it('When a milestone is created, dated and closed, then each write publishes it as it is, at the next revision', async () => {
    const ns = groupNamespace();
    const created = await h.call('POST', `/groups/${ns.id}/milestones`, {
      ns,
      json: { title: 'v1', start_date: '2026-01-05' },
    });
    const m = milestoneEntity.parse(created.body);
    await h.call('PUT', `/groups/${ns.id}/milestones/${m.id}`, { ns, json: { due_date: '2026-02-01' } });
    await h.call('PUT', `/groups/${ns.id}/milestones/${m.id}`, { ns, json: { state_event: 'close' } });
    const defined = await definitions(m.id);
    expect(defined).toEqual([
      {
        milestoneId: m.id,
        groupId: ns.id,
        iid: m.iid,
        revision: 1,
        title: 'v1',
        state: 'active',
        startDate: '2026-01-05',
        dueDate: null,
      },
      expect.objectContaining({ revision: 2, state: 'active', dueDate: '2026-02-01' }),
      expect.objectContaining({
        revision: 3,
        state: 'closed',
        dueDate: '2026-02-01',
        startDate: '2026-01-05',
      }),
    ]);
  });

  it('When two updates of one milestone race, then the highest revision carries the milestone as it ends', async () => {
    const ns = groupNamespace();
    const m = milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'race' } })).body,
    );
    const path = `/groups/${ns.id}/milestones/${m.id}`;
    const replies = await Promise.all([
      h.call('PUT', path, { ns, json: { title: 'renamed' } }),
      h.call('PUT', path, { ns, json: { due_date: '2027-03-01' } }),
      h.call('PUT', path, { ns, json: { start_date: '2027-01-01' } }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const final = milestoneEntity.parse((await h.call('GET', path, { ns })).body);
    const defined = await definitions(m.id);
    expect(defined.map((d) => d.revision)).toEqual([1, 2, 3, 4]);
    expect(defined.at(-1)).toMatchObject({
      title: final.title,
      dueDate: final.due_date,
      startDate: final.start_date,
    });
    expect(final).toMatchObject({ title: 'renamed', due_date: '2027-03-01', start_date: '2027-01-01' });
  });

  it('When milestones were written before definitions existed, then the migration publishes each once', async () => {
    const ns = groupNamespace();
    const milestones = h.runtime.connection.collection('milestones');
    const old = { groupId: ns.id, description: '', createdAt: new Date(), updatedAt: new Date() };
    await milestones.insertMany([
      {
        _id: 9_900_000 + ns.id,
        iid: 1,
        title: 'old1',
        state: 'active',
        dueDate: '2030-01-01',
        startDate: null,
        ...old,
      },
      {
        _id: 9_910_000 + ns.id,
        iid: 2,
        title: 'old2',
        state: 'closed',
        dueDate: null,
        startDate: null,
        ...old,
      },
    ] as never[]);
    await milestoneDefinitionsMigration(3).up(h.runtime.connection, h.runtime.logger);
    await milestoneDefinitionsMigration(3).up(h.runtime.connection, h.runtime.logger);
    expect(await definitions(9_900_000 + ns.id)).toEqual([
      expect.objectContaining({ revision: 1, title: 'old1', state: 'active', dueDate: '2030-01-01' }),
    ]);
    expect(await definitions(9_910_000 + ns.id)).toEqual([
      expect.objectContaining({ revision: 1, title: 'old2', state: 'closed', dueDate: null }),
    ]);
    // The next change goes on from there.
    await h.call('PUT', `/groups/${ns.id}/milestones/${9_900_000 + ns.id}`, { ns, json: { title: 'old1b' } });
    expect((await definitions(9_900_000 + ns.id)).map((d) => d.revision)).toEqual([1, 2]);
  });
});
