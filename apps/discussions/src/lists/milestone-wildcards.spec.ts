import { MILESTONE_WILDCARD_KEYS as K, milestoneWildcardIds } from './issuables.scope';

const today = '2026-05-10';

describe('milestone wildcards (Milestone.upcoming_ids, started, not_upcoming, not_started)', () => {
  const m = (
    _id: number,
    groupId: number,
    dueDate: string | null,
    startDate: string | null = null,
    state: 'active' | 'closed' = 'active',
  ) => ({ _id, groupId, dueDate, startDate, state });

  it('When groups have open milestones due later, then Upcoming is each related group’s next one (equal days: the lowest id)', () => {
    const ids = milestoneWildcardIds(
      [
        m(1, 7, '2026-05-20'),
        m(2, 7, '2026-05-12'),
        m(3, 7, '2026-05-11', null, 'closed'),
        m(4, 7, today),
        m(5, 8, '2026-06-01'),
        m(6, 8, '2026-06-01'),
        m(7, 9, '2026-05-11'),
        m(8, 8, null),
      ],
      [7, 8],
      today,
    );
    expect(ids.get(K.upcoming)).toEqual([2, 5]);
    expect(ids.get(K.notUpcoming)).toEqual([4]);
  });

  it('When milestones start before, on or after today, then Started and not Started part the open ones', () => {
    const ids = milestoneWildcardIds(
      [
        m(1, 7, null, '2026-05-01'),
        m(2, 7, '2026-05-01', today),
        m(3, 7, null, '2026-05-11'),
        m(4, 7, null, '2026-05-01', 'closed'),
        m(5, 7, null, null),
      ],
      [],
      today,
    );
    expect(ids.get(K.started)).toEqual([1, 2]);
    expect(ids.get(K.notStarted)).toEqual([3]);
    expect(ids.get(K.upcoming)).toEqual([]);
  });
});
