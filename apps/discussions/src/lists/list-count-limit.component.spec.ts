import { OWNER, useHarness } from '@gl/testing';
import { createDiscussionsModels } from '../discussions.models';
import { createNoteablesStore } from '../noteables/noteables.store';
import { issuableOrder } from './issuable-order';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

/**
 * GitLab counts issue and merge request lists only up to Kaminari's MAX_COUNT_LIMIT (10,000): past it the
 * page has no X-Total, X-Total-Pages or `last` link, and the next page is known from one more row. Here
 * the limit is 3, so five issues are past it.
 */
describe('Issue lists past the count limit', () => {
  const h = useHarness(startDiscussionsHarness);

  async function fiveIssues(listCountLimit = 3) {
    const ns = projectNamespace();
    for (let i = 1; i <= 5; i++) {
      const res = await h.call('POST', `/projects/${ns.id}/issues`, {
        ns,
        json: { title: `t${i}` },
        as: OWNER,
      });
      expect(res.status).toBe(201);
    }
    const models = createDiscussionsModels(h.runtime.connection, h.runtime.outbox);
    const store = createNoteablesStore({ models, outbox: h.runtime.outbox }, { listCountLimit });
    const filter = { kind: 'Issue', projectId: ns.id };
    const read = (skip: number, limit: number) =>
      store.pageWhere(filter, issuableOrder(undefined, undefined), skip, limit);
    return { read, ns };
  }

  it('When more issues match than the limit, then the page has no total and says whether a next page exists', async () => {
    const { read } = await fiveIssues();
    const first = await read(0, 2);
    expect(first.items.map((doc) => doc.title)).toEqual(['t5', 't4']);
    expect(first).toMatchObject({ total: null, hasNext: true });
    // The last page: no next page, and no total either (GitLab withholds it on every page past the limit).
    expect(await read(4, 2)).toMatchObject({ total: null, hasNext: false });
    expect(await read(0, 20)).toMatchObject({ total: null, hasNext: false });
    expect(await read(2, 2)).toMatchObject({ total: null, hasNext: true });
  });

  it('When a page shows the end of a list within the limit, then its total is exact without a count', async () => {
    const { read } = await fiveIssues(10);
    expect(await read(0, 20)).toMatchObject({ total: 5, hasNext: false });
    expect(await read(0, 5)).toMatchObject({ total: 5, hasNext: false });
    expect(await read(4, 2)).toMatchObject({ total: 5, hasNext: false });
    // Past the end the page cannot tell: counted (up to the limit).
    expect(await read(20, 5)).toMatchObject({ items: [], total: 5, hasNext: false });
  });

  it('When the list is within the limit, then X-Total and the last link are sent', async () => {
    const { ns } = await fiveIssues();
    const res = await h.call('GET', `/projects/${ns.id}/issues?per_page=2`, { ns, as: OWNER });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('link')).toContain('rel="last"');
  });
});
