import { milestoneEntity, paramError } from '@gl/contracts';
import { useHarness } from '@gl/testing';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';

describe('Group milestone dates', () => {
  const h = useHarness(startBoardsHarness);

  it('When due_date and start_date come as ISO date-times, then the milestone keeps their dates', async () => {
    const ns = groupNamespace();
    const created = await h.call('POST', `/groups/${ns.id}/milestones`, {
      ns,
      json: { title: 'v1', start_date: '2026-03-01T09:30:00Z', due_date: '2026-03-31T23:00:00-05:00' },
    });
    expect(created.status).toBe(201);
    const milestone = milestoneEntity.parse(created.body);
    expect(milestone).toMatchObject({ start_date: '2026-03-01', due_date: '2026-03-31' });
    const updated = await h.call('PUT', `/groups/${ns.id}/milestones/${milestone.id}`, {
      ns,
      json: { due_date: '2026-04-15T00:00:00.000Z' },
    });
    expect(milestoneEntity.parse(updated.body).due_date).toBe('2026-04-15');
    const cleared = await h.call('PUT', `/groups/${ns.id}/milestones/${milestone.id}`, {
      ns,
      json: { due_date: '' },
    });
    expect(milestoneEntity.parse(cleared.body).due_date).toBeNull();
  });

  it('When a date is not one, or an impossible day, then 400 "<name> is invalid"', async () => {
    const ns = groupNamespace();
    for (const due_date of ['tomorrow', '2026-02-30', '2026-02-30T10:00:00Z']) {
      const res = await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'x', due_date } });
      expect(res.status).toBe(400);
      expect(paramError.parse(res.body)).toEqual({ error: 'due_date is invalid' });
    }
  });
});
