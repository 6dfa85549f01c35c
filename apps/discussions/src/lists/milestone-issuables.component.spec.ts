import { z } from 'zod';
import { EVENT_TYPES, issueEntity, mergeRequestEntity, messageError } from '@gl/contracts';
import { groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const ID = EVENT_TYPES.identity;

describe('Issues and merge requests of a group milestone', () => {
  const h = useHarness(startDiscussionsHarness);

  it('When issues and merge requests carry the milestone, then its lists show them, paginated; unknown is 404', async () => {
    const g = groupNamespace({ visibility: 'public' });
    await h.deliver(ID.groupCreated, groupEventFields(g.id, { visibility: 'public', ancestorGroupIds: [] }));
    const ns = projectNamespace({ visibility: 'public', ancestorGroupIds: [g.id], fullPath: `g/p${g.id}` });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(ns.id, { visibility: 'public', ancestorGroupIds: [g.id], fullPath: ns.fullPath }),
    );
    const milestoneId = 70_000 + g.id;
    await h.runtime.connection
      .collection('milestones')
      .insertOne({ _id: milestoneId, iid: 1, title: `M${g.id}` } as never);
    const p = `/projects/${ns.id}`;
    for (const title of ['A', 'B']) {
      await h.call('POST', `${p}/issues`, { ns, json: { title, milestone_id: milestoneId } });
    }
    await h.call('POST', `${p}/issues`, { ns, json: { title: 'none' } });
    await h.call('POST', `${p}/merge_requests`, {
      ns,
      json: { source_branch: 'f', target_branch: 'main', title: 'MR', milestone_id: milestoneId },
    });
    const base = `/groups/${g.id}/milestones/${milestoneId}`;
    const list = await h.call('GET', `${base}/issues?per_page=1`, { ns: g, as: null });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('2');
    expect(z.array(issueEntity).parse(list.body)).toHaveLength(1);
    const mrs = await h.call('GET', `${base}/merge_requests`, { ns: g });
    expect(
      z
        .array(mergeRequestEntity)
        .parse(mrs.body)
        .map((m) => m.title),
    ).toEqual(['MR']);
    const missing = await h.call('GET', `/groups/${g.id}/milestones/999999/issues`, { ns: g });
    expect(missing.status).toBe(404);
    expect(messageError.parse(missing.body)).toEqual({ message: '404 Not found' });
  });
});
