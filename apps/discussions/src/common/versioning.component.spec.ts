import { issueEntity, mergeRequestEntity, snippetEntity } from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, useHarness } from '@gl/testing';

/** The v3 → v4 changes of the spec ("Versioning") that touch this service. */
describe('API v4 conventions', () => {
  const h = useHarness(startDiscussionsHarness);

  const iidsOf = (body: unknown, entity: typeof issueEntity | typeof mergeRequestEntity) =>
    z
      .array(entity)
      .parse(body)
      .map((item) => item.iid)
      .sort();

  async function threeIssues() {
    const ns = projectNamespace();
    for (const title of ['One', 'Two', 'Three']) {
      await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title } });
    }
    return ns;
  }

  it('When issues are listed with iids[] (repeated or comma-separated), then only those iids come back', async () => {
    const ns = await threeIssues();
    const repeated = await h.call('GET', `/projects/${ns.id}/issues?iids[]=1&iids[]=3`, { ns });
    expect(repeated.status).toBe(200);
    expect(iidsOf(repeated.body, issueEntity)).toEqual([1, 3]);
    expect(repeated.headers.get('x-total')).toBe('2');
    const comma = await h.call('GET', `/projects/${ns.id}/issues?iids=2,3`, { ns });
    expect(iidsOf(comma.body, issueEntity)).toEqual([2, 3]);
  });

  it('When issues are listed with the v3 iid filter, then it is ignored as v4 removed it', async () => {
    const ns = await threeIssues();
    const res = await h.call('GET', `/projects/${ns.id}/issues?iid=2`, { ns });
    expect(iidsOf(res.body, issueEntity)).toEqual([1, 2, 3]);
  });

  it('When iids[] is not a list of integers, then 400 "iids is invalid"', async () => {
    const ns = await threeIssues();
    const res = await h.call('GET', `/projects/${ns.id}/issues?iids[]=x`, { ns });
    expect(res).toMatchObject({ status: 400, body: { error: 'iids is invalid' } });
  });

  it('When merge requests are listed with iids[], then only those come back; the v3 iid[] is ignored', async () => {
    const ns = projectNamespace();
    for (const branch of ['main', 'a', 'b']) {
      await h.call('POST', `/projects/${ns.id}/repository/commits`, {
        ns,
        as: DEVELOPER,
        json: {
          branch,
          commit_message: branch,
          actions: [{ action: 'create', file_path: branch, content: '' }],
        },
      });
    }
    for (const source of ['a', 'b']) {
      const res = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
        ns,
        as: DEVELOPER,
        json: { source_branch: source, target_branch: 'main', title: source },
      });
      expect(res.status).toBe(201);
    }
    const filtered = await h.call('GET', `/projects/${ns.id}/merge_requests?iids[]=2`, { ns });
    expect(iidsOf(filtered.body, mergeRequestEntity)).toEqual([2]);
    const v3 = await h.call('GET', `/projects/${ns.id}/merge_requests?iid[]=2`, { ns });
    expect(iidsOf(v3.body, mergeRequestEntity)).toEqual([1, 2]);
  });

  it('When a project snippet is created, read or listed, then it has no expires_at', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: { title: 'S', file_name: 'a.rb', content: 'puts 1', visibility: 'private' },
    });
    expect(created.status).toBe(201);
    const id = snippetEntity.parse(created.body).id;
    const read = await h.call('GET', `/projects/${ns.id}/snippets/${id}`, { ns });
    const listed = await h.call('GET', `/projects/${ns.id}/snippets`, { ns });
    for (const body of [created.body, read.body, (listed.body as unknown[])[0]]) {
      expect(body).toMatchObject({ id, file_name: 'a.rb' });
      expect(body).not.toHaveProperty('expires_at');
    }
  });
});
