import { discussionEntity, mergeRequestEntity } from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, GUEST, REPORTER, STRANGER, useHarness } from '@gl/testing';

/**
 * ProjectPolicy: `read_merge_request` comes with `public_access` (public projects; internal ones when signed
 * in) or Reporter; IssuablePolicy adds the author and assignees with Guest access. A Guest of a private
 * project therefore cannot list merge requests (403), read one (403) or see its threads (404).
 */
describe('Who reads merge requests', () => {
  const h = useHarness(startDiscussionsHarness);

  async function mergeRequestIn(visibility: 'private' | 'internal' | 'public') {
    const ns = projectNamespace({ visibility });
    const created = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      as: DEVELOPER,
      json: { source_branch: 'feature', target_branch: 'main', title: 'Feature' },
    });
    const mr = mergeRequestEntity.parse(created.body);
    await h.call('POST', `/projects/${ns.id}/merge_requests/${mr.iid}/discussions`, {
      ns,
      as: DEVELOPER,
      json: { body: 'Thread' },
    });
    return { ns, path: `/projects/${ns.id}/merge_requests`, iid: mr.iid };
  }

  it('When a guest of a private project lists, reads or comments on its merge requests, then 403, 403 and 404', async () => {
    const { ns, path, iid } = await mergeRequestIn('private');
    const list = await h.call('GET', path, { ns, as: GUEST });
    expect(list).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const one = await h.call('GET', `${path}/${iid}`, { ns, as: GUEST });
    expect(one).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const unknownIid = await h.call('GET', `${path}/999/discussions`, { ns, as: GUEST });
    const threads = await h.call('GET', `${path}/${iid}/discussions`, { ns, as: GUEST });
    expect(threads.status).toBe(404);
    expect(threads.body).toEqual(unknownIid.body); // indistinguishable from a merge request that does not exist
    const comment = await h.call('POST', `${path}/${iid}/notes`, { ns, as: GUEST, json: { body: 'hi' } });
    expect(comment.status).toBe(404);
  });

  it('When a reporter of a private project lists and reads merge requests, then 200', async () => {
    const { ns, path, iid } = await mergeRequestIn('private');
    const list = await h.call('GET', path, { ns, as: REPORTER });
    expect(
      z
        .array(mergeRequestEntity)
        .parse(list.body)
        .map((mr) => mr.iid),
    ).toEqual([iid]);
    const threads = await h.call('GET', `${path}/${iid}/discussions`, { ns, as: REPORTER });
    expect(z.array(discussionEntity).parse(threads.body)).toHaveLength(1);
  });

  it('When a guest is assigned to a merge request, then they read it and its threads but still cannot list', async () => {
    const { ns, path, iid } = await mergeRequestIn('private');
    await h.call('PUT', `${path}/${iid}`, { ns, as: DEVELOPER, json: { assignee_ids: [GUEST.id] } });
    const one = await h.call('GET', `${path}/${iid}`, { ns, as: GUEST });
    expect(mergeRequestEntity.parse(one.body).iid).toBe(iid);
    const threads = await h.call('GET', `${path}/${iid}/discussions`, { ns, as: GUEST });
    expect(threads.status).toBe(200);
    const list = await h.call('GET', path, { ns, as: GUEST });
    expect(list.status).toBe(403);
  });

  it('When the project is public, or internal and the reader signed in, then anyone reads its merge requests', async () => {
    const open = await mergeRequestIn('public');
    expect((await h.call('GET', open.path, { ns: open.ns, as: null })).status).toBe(200);
    expect((await h.call('GET', `${open.path}/${open.iid}`, { ns: open.ns, as: GUEST })).status).toBe(200);
    const internal = await mergeRequestIn('internal');
    expect((await h.call('GET', internal.path, { ns: internal.ns, as: STRANGER })).status).toBe(200);
    const threads = await h.call('GET', `${internal.path}/${internal.iid}/discussions`, {
      ns: internal.ns,
      as: STRANGER,
    });
    expect(threads.status).toBe(200);
  });
});
