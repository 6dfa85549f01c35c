import type { mongo } from 'mongoose';
import { OWNER, useHarness } from '@gl/testing';
import type { IssueOrderBy } from '@gl/contracts';
import { issuableFilter, type FinderQuery } from './issuables.finder';
import { HAS_VALUE, issuableOrder, sortSpec } from './issuable-order';
import { listIndexKeysMigration } from '../migrations/list-index-keys';
import { assigneeKeyWordsMigration } from '../migrations/assignee-key-words';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

/**
 * How the local FerretDB answers an issue list's page (the finder's filter, the order's sort, a page's
 * limit): along one list index of the project whose trailing keys (noteables/noteable.model.ts LIST_FILTER_KEYS)
 * hold what the label, state, milestone and confidentiality filters read, in the index's order, so a page
 * never sorts and never reads a document it passes (the label filter read `labelSet` from every document
 * of the scope: 6 s for a group of 100,000 issues). The plan is SQLite's (FerretDB patch 0002 explain);
 * on another server the test has nothing to check.
 */
describe('Issue list plans: label, state, milestone and confidentiality filters walk a list index', () => {
  const h = useHarness(startDiscussionsHarness);

  const queries: [string, FinderQuery][] = [
    ['labels=A,c++', { labels: ['A', 'c++'] }],
    ['labels=a.b&state=opened', { labels: ['a.b'], state: 'opened' }],
    ['not[labels]=A&state=closed', { not: { labels: ['A'] }, state: 'closed' }],
    ['labels=None', { labels: ['None'] }],
    ['labels=Any&state=opened', { labels: ['Any'], state: 'opened' }],
    ['labels=A&milestone=M&confidential=false', { labels: ['A'], milestone: 'M', confidential: false }],
    ['assignee_id=5&not[assignee_id]=6', { assignee_id: 5, not: { assignee_id: 6 } }],
    ['assignee_id=None', { assignee_id: 'None' }],
    ['scope=assigned_to_me&state=opened', { scope: 'assigned_to_me', state: 'opened' }],
  ];
  const orders: [IssueOrderBy | undefined, 'asc' | 'desc' | undefined][] = [
    [undefined, undefined],
    ['created_at', 'asc'],
    ['updated_at', 'desc'],
    ['popularity', 'desc'],
  ];

  /** How the local FerretDB plans a page of 20 (SQLite's plan lines), or null on another database. */
  async function planOf(
    noteables: mongo.Collection,
    filter: mongo.Filter<mongo.Document>,
    sort: Record<string, 1 | -1>,
  ) {
    const explained = (await noteables.find(filter).sort(sort).limit(20).explain()) as {
      queryPlanner?: { Plan?: string[] };
      filterPushdown?: boolean;
    };
    const plan = explained.queryPlanner?.Plan;
    if (!Array.isArray(plan)) return null;
    return {
      filterPushdown: explained.filterPushdown,
      details: plan.map((line) => line.replace(/^.*detail=/, '')),
    };
  }

  /** A project of OWNER's with an issue per label list, and the finder's filter for `query` there. */
  async function ownersProject(
    query: FinderQuery,
    labelLists: string[],
    fields: Record<string, unknown> = {},
  ) {
    const ns = projectNamespace();
    for (const labels of labelLists) {
      const res = await h.call('POST', `/projects/${ns.id}/issues`, {
        ns,
        json: { title: `t ${labels}`, labels, ...fields },
        as: OWNER,
      });
      expect(res.status).toBe(201);
    }
    const projects = [{ id: ns.id, level: 50, visibility: 'private' as const }];
    const lookups = { milestoneIds: new Map([['M', [7]]]), userIds: new Map<string, number>() };
    const viewer = { userId: OWNER.id, isAdmin: false };
    return {
      noteables: h.runtime.connection.collection('noteables'),
      filter: issuableFilter({ kind: 'Issue', query, projects, viewer, lookups }, { withState: true }),
    };
  }

  it.each(queries)(
    'When a project lists %s in any order, then one list index answers the page without sorting',
    async (_name, query) => {
      const { noteables, filter } = await ownersProject(query, ['A,c++', 'a.b', '']);
      for (const [orderBy, sort] of orders) {
        const plan = await planOf(noteables, filter, sortSpec(issuableOrder(orderBy, sort)));
        if (!plan) return; // not the local FerretDB
        expect({ orderBy, sort, ...plan }).toEqual({
          orderBy,
          sort,
          filterPushdown: true,
          details: [
            expect.stringMatching(
              /^SEARCH \S+ USING INDEX \S+_kind_1_projectId_1_\S*_id_-?1_state_1_labelKeys_1_milestoneId_1_confidential_1_assigneeKeys_1 /,
            ),
          ],
        });
      }
    },
  );

  // A nulls-last order (noteables.store.ts pageWhere) reads the items with a value first, by a range on the
  // order's field (HAS_VALUE). The range fixes the field's type, and FerretDB patch 0011 leaves that out of
  // the ORDER BY, without which SQLite sorted every match of the range in a temporary B-tree for a page of
  // 20 (100,000 issues by relative_position, descending: 224 ms a page, then 9 ms). due_date ascending
  // breaks ties by id descending, against the index's ascending id: SQLite orders the ids of each due date
  // on the way (its last terms), still stopping at the page's end.
  const nullsLastOrders: [IssueOrderBy, 'asc' | 'desc', string, string[]][] = [
    ['relative_position', 'asc', 'relativePosition', []],
    ['relative_position', 'desc', 'relativePosition', []],
    ['due_date', 'desc', 'dueDate', []],
    ['due_date', 'asc', 'dueDate', ['USE TEMP B-TREE FOR LAST 2 TERMS OF ORDER BY']],
  ];

  it.each(queries)(
    "When a project lists %s in a nulls-last order, then the items with a value are read along the order's list index without a sort",
    async (_name, query) => {
      const { noteables, filter } = await ownersProject(query, ['A,c++', ''], { due_date: '2026-01-02' });
      for (const [orderBy, sort, field, sorting] of nullsLastOrders) {
        const order = issuableOrder(orderBy, sort);
        expect(order).toMatchObject({ field, nullsLast: true });
        const valued = { $and: [filter, { [field]: HAS_VALUE[field] }] };
        const plan = await planOf(noteables, valued, sortSpec(order));
        if (!plan) return; // not the local FerretDB
        expect({ orderBy, sort, ...plan }).toEqual({
          orderBy,
          sort,
          filterPushdown: true,
          details: [
            expect.stringMatching(
              new RegExp(
                `^SEARCH \\S+ USING INDEX \\S+_kind_1_projectId_1_${field}_1__id_1_state_1_labelKeys_1_`,
              ),
            ),
            ...sorting,
          ],
        });
      }
    },
  );

  it('When the list indexes of an older release exist, then the migration step drops them and keeps those that replace them', async () => {
    const noteables = h.runtime.connection.collection('noteables');
    await noteables.createIndex({ kind: 1, projectId: 1, _id: -1 });
    await noteables.createIndex({ kind: 1, projectId: 1, createdAt: 1, _id: 1 });
    await listIndexKeysMigration(4).up(h.runtime.connection, h.runtime.logger);
    await listIndexKeysMigration(4).up(h.runtime.connection, h.runtime.logger);
    const names = (await noteables.indexes()).map((index) => index.name);
    expect(names).not.toContain('kind_1_projectId_1__id_-1');
    expect(names).not.toContain('kind_1_projectId_1_createdAt_1__id_1');
    expect(names).toContain(
      'kind_1_projectId_1_createdAt_1__id_1_state_1_labelKeys_1_milestoneId_1_confidential_1_assigneeKeys_1',
    );
  });

  it('When indexes without the assignee words exist, then step 5 fills the words and drops those indexes', async () => {
    const noteables = h.runtime.connection.collection('noteables');
    const earlier = { state: 1, labelKeys: 1, milestoneId: 1, confidential: 1 };
    await noteables.createIndex({ kind: 1, projectId: 1, _id: -1, ...earlier });
    await noteables.createIndex({ kind: 1, projectId: 1, updatedAt: 1, _id: 1, ...earlier });
    const column = { kind: 1, positionScope: 1, state: 1, relativePosition: 1, _id: 1, projectId: 1 };
    await noteables.createIndex({ ...column, labelKeys: 1, milestoneId: 1, confidential: 1 });
    await noteables.insertOne({ _id: 990_001 as never, kind: 'Issue', projectId: 1, assigneeIds: [5, 12] });
    await noteables.insertOne({ _id: 990_002 as never, kind: 'Snippet', projectId: 1 });
    await assigneeKeyWordsMigration(5).up(h.runtime.connection, h.runtime.logger);
    await assigneeKeyWordsMigration(5).up(h.runtime.connection, h.runtime.logger);
    const filled = await noteables.find({ _id: { $in: [990_001, 990_002] as never[] } }).toArray();
    expect(filled.map((doc) => doc.assigneeKeys as unknown)).toEqual([' u5 u12 ', ' ']);
    const names = (await noteables.indexes()).map((index) => index.name);
    expect(names.filter((name) => name!.endsWith('_confidential_1'))).toEqual([]);
    expect(names).toContain(
      'kind_1_positionScope_1_state_1_relativePosition_1__id_1_projectId_1_labelKeys_1_milestoneId_1_confidential_1_assigneeKeys_1',
    );
  });

  it('When a signed-in non-member lists a public project, then the read rule (not confidential, theirs, or assigned) is checked along a list index', async () => {
    const ns = projectNamespace();
    const noteables = h.runtime.connection.collection('noteables');
    const projects = [{ id: ns.id, level: 0, visibility: 'public' as const }];
    const lookups = { milestoneIds: new Map<string, number[]>(), userIds: new Map<string, number>() };
    const viewer = { userId: 4242, isAdmin: false };
    const filter = issuableFilter(
      { kind: 'Issue', query: {}, projects, viewer, lookups },
      { withState: true },
    );
    const plan = await planOf(noteables, filter, sortSpec(issuableOrder(undefined, undefined)));
    if (!plan) return; // not the local FerretDB
    expect(plan.filterPushdown).toBe(true);
    expect(plan.details).toEqual([
      expect.stringMatching(
        /^SEARCH \S+ USING INDEX \S+_kind_1_projectId_1_\S*_id_-?1_state_1_\S*assigneeKeys_1 /,
      ),
    ]);
  });
  it('When a board column is narrowed to the few issues of a rare label, then they are read by the _id index, not along the column index', async () => {
    const noteables = h.runtime.connection.collection('noteables');
    const filter = {
      $and: [
        { kind: 'Issue' },
        { projectId: { $in: [1, 2] } },
        { state: 'opened' },
        { labelKeys: { $regex: ' l72 ' } },
        { _id: { $in: [11, 12, 13] } },
        { positionScope: 'g1' },
      ],
    };
    const plan = await planOf(noteables, filter as mongo.Filter<mongo.Document>, {
      relativePosition: 1,
      _id: 1,
    });
    if (!plan) return; // not the local FerretDB
    expect(plan.filterPushdown).toBe(true);
    // The widest index led by _id: the column's conditions are checked on its entries.
    expect(plan.details[0]).toMatch(
      /^SEARCH \S+ USING INDEX \S+__id_1_kind_1_positionScope_1_\S+assigneeKeys_1 /,
    );
  });
});
