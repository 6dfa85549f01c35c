import { issueEntity } from '@gl/contracts';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { useHarness } from '@gl/testing';

const TITLE_TOO_LONG = 'is too long (maximum is 255 characters)';
const MIB = 1024 * 1024;

/** GitLab's model limits on what the discussions service stores (libs/contracts limits.ts). */
describe('discussions text limits', () => {
  const h = useHarness(startDiscussionsHarness);

  it("When an issue title is over 255 characters or its description over 1 MiB, then 400 with the model's messages", async () => {
    const ns = projectNamespace();
    const res = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 't'.repeat(256), description: 'd'.repeat(MIB + 1) },
    });
    expect(res).toMatchObject({
      status: 400,
      body: {
        message: {
          title: [TITLE_TOO_LONG],
          description: ['is too long (1 MiB). The maximum size is 1 MiB.'],
        },
      },
    });
    expect((await h.call('GET', `/projects/${ns.id}/issues`, { ns })).body).toEqual([]);
  });

  it('When an issue is at the limits (255 emoji, 1 MiB of bytes), then it is created; longer updates are refused', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: '😁'.repeat(255), description: 'é'.repeat(MIB / 2) },
    });
    expect(created.status).toBe(201);
    const issue = issueEntity.parse(created.body);
    const updated = await h.call('PUT', `/projects/${ns.id}/issues/${issue.iid}`, {
      ns,
      json: { description: 'é'.repeat(MIB) },
    });
    expect(updated).toMatchObject({
      status: 400,
      body: { message: { description: ['is too long (2 MiB). The maximum size is 1 MiB.'] } },
    });
    const reread = issueEntity.parse(
      (await h.call('GET', `/projects/${ns.id}/issues/${issue.iid}`, { ns })).body,
    );
    expect(reread.description).toHaveLength(MIB / 2);
  });

  it('When a merge request or an epic title is over 255 characters, then 400 with the model message', async () => {
    const ns = projectNamespace();
    const mr = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { title: 'm'.repeat(256), source_branch: 'feature', target_branch: 'main' },
    });
    expect(mr).toMatchObject({ status: 400, body: { message: { title: [TITLE_TOO_LONG] } } });
    const group = groupNamespace();
    const epic = await h.call('POST', `/groups/${group.id}/epics`, {
      ns: group,
      json: { title: 'e'.repeat(256) },
    });
    expect(epic).toMatchObject({ status: 400, body: { message: { title: [TITLE_TOO_LONG] } } });
  });

  it("When a snippet title and file name are too long, then 400 with Snippets::CreateService's sentence", async () => {
    const ns = projectNamespace();
    const res = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: { title: 's'.repeat(256), file_name: 'f'.repeat(256), content: 'x' },
    });
    expect(res).toMatchObject({
      status: 400,
      body: {
        message: {
          error:
            'Title is too long (maximum is 255 characters) and File name is too long (maximum is 255 characters)',
        },
      },
    });
    expect((await h.call('GET', `/projects/${ns.id}/snippets`, { ns })).body).toEqual([]);
  });

  it('When a note is 1,000,001 characters, then 400 with the note message; 1,000,000 emoji are accepted', async () => {
    const ns = projectNamespace();
    const issue = issueEntity.parse(
      (await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'notes' } })).body,
    );
    const tooLong = await h.call('POST', `/projects/${ns.id}/issues/${issue.iid}/notes`, {
      ns,
      json: { body: 'n'.repeat(1_000_001) },
    });
    expect(tooLong).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' },
    });
    const emoji = await h.call('POST', `/projects/${ns.id}/issues/${issue.iid}/notes`, {
      ns,
      json: { body: '😁'.repeat(1_000_000) },
    });
    expect(emoji.status).toBe(201);
    const notes = (await h.call('GET', `/projects/${ns.id}/issues/${issue.iid}/notes`, { ns }))
      .body as unknown[];
    expect(notes).toHaveLength(1);
  });
});
