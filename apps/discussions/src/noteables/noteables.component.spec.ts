import { commitEntity, epicEntity, mergeRequestEntity, snippetEntity } from '@gl/contracts';
import { z } from 'zod';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, GUEST, OWNER, REPORTER, useHarness } from '@gl/testing';

describe('Merge requests, snippets, epics and commits', () => {
  const h = useHarness(startDiscussionsHarness);

  const commitOn = (ns: ReturnType<typeof projectNamespace>, branch: string, message: string) =>
    h.call('POST', `/projects/${ns.id}/repository/commits`, {
      ns,
      as: DEVELOPER,
      json: {
        branch,
        commit_message: message,
        actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }],
      },
    });

  it('When a commit is recorded, then it has a 40-hex SHA, short id, title and its parent, and can be read back', async () => {
    const ns = projectNamespace();
    const first = commitEntity.parse((await commitOn(ns, 'main', 'Initial commit\n\nbody')).body);
    expect(first.id).toMatch(/^[0-9a-f]{40}$/);
    expect(first).toMatchObject({ short_id: first.id.slice(0, 8), title: 'Initial commit', parent_ids: [] });
    const second = commitEntity.parse((await commitOn(ns, 'main', 'Second')).body);
    expect(second.parent_ids).toEqual([first.id]);
    const read = await h.call('GET', `/projects/${ns.id}/repository/commits/${second.id}`, {
      ns,
      as: REPORTER,
    });
    expect(commitEntity.parse(read.body).message).toBe('Second');
    const short = await h.call('GET', `/projects/${ns.id}/repository/commits/${second.short_id}`, { ns });
    expect(commitEntity.parse(short.body).id).toBe(second.id);
    const byBranch = await h.call('GET', `/projects/${ns.id}/repository/commits/main`, { ns });
    expect(commitEntity.parse(byBranch.body).id).toBe(second.id);
    const list = await h.call('GET', `/projects/${ns.id}/repository/commits?ref_name=main`, { ns });
    expect(
      z
        .array(commitEntity)
        .parse(list.body)
        .map((c) => c.id),
    ).toEqual([second.id, first.id]);
    const missing = await h.call('GET', `/projects/${ns.id}/repository/commits/${'0'.repeat(40)}`, { ns });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
  });

  it('When a reporter commits or a required parameter is missing, then 403 and 400', async () => {
    const ns = projectNamespace();
    const reporter = await h.call('POST', `/projects/${ns.id}/repository/commits`, {
      ns,
      as: REPORTER,
      json: { branch: 'main', commit_message: 'x', actions: [] },
    });
    expect(reporter.status).toBe(403);
    const missing = await h.call('POST', `/projects/${ns.id}/repository/commits`, {
      ns,
      as: DEVELOPER,
      json: {},
    });
    expect(missing).toMatchObject({
      status: 400,
      body: { error: 'branch is missing, commit_message is missing, actions is missing' },
    });
  });

  it('When a merge request is opened between pushed branches, then diff_refs name the branch heads', async () => {
    const ns = projectNamespace();
    const base = commitEntity.parse((await commitOn(ns, 'main', 'base')).body);
    const head = commitEntity.parse((await commitOn(ns, 'feature', 'feature work')).body);
    const res = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      as: DEVELOPER,
      json: { source_branch: 'feature', target_branch: 'main', title: 'Add feature' },
    });
    expect(res.status).toBe(201);
    const mr = mergeRequestEntity.parse(res.body);
    expect(mr).toMatchObject({ iid: 1, state: 'opened', sha: head.id, references: { short: '!1' } });
    expect(mr.diff_refs).toEqual({ base_sha: base.id, head_sha: head.id, start_sha: base.id });
  });

  it('When a merge request is opened twice for the same branches or onto itself, then 409 and 422', async () => {
    const ns = projectNamespace();
    const body = { source_branch: 'f', target_branch: 'main', title: 'x' };
    await h.call('POST', `/projects/${ns.id}/merge_requests`, { ns, json: body });
    const again = await h.call('POST', `/projects/${ns.id}/merge_requests`, { ns, json: body });
    expect(again).toMatchObject({
      status: 409,
      body: { message: ['Another open merge request already exists for this source branch: !1'] },
    });
    const same = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { ...body, source_branch: 'main' },
    });
    expect(same.status).toBe(422);
    const guest = await h.call('POST', `/projects/${ns.id}/merge_requests`, { ns, as: GUEST, json: body });
    expect(guest.status).toBe(403);
  });

  it('When a merge request is closed, reopened and merged, then its state follows and merging twice is 405', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { source_branch: 'f', target_branch: 'main', title: 'x' },
    });
    const closed = await h.call('PUT', `/projects/${ns.id}/merge_requests/1`, {
      ns,
      json: { state_event: 'close' },
    });
    expect(mergeRequestEntity.parse(closed.body).state).toBe('closed');
    const reopened = await h.call('PUT', `/projects/${ns.id}/merge_requests/1`, {
      ns,
      json: { state_event: 'reopen' },
    });
    expect(mergeRequestEntity.parse(reopened.body).state).toBe('opened');
    const merged = await h.call('PUT', `/projects/${ns.id}/merge_requests/1/merge`, { ns, as: DEVELOPER });
    expect(mergeRequestEntity.parse(merged.body)).toMatchObject({
      state: 'merged',
      merged_by: { id: DEVELOPER.id },
    });
    const mergeSha = mergeRequestEntity.parse(merged.body).merge_commit_sha!;
    const mergeCommit = commitEntity.parse(
      (await h.call('GET', `/projects/${ns.id}/repository/commits/${mergeSha}`, { ns })).body,
    );
    expect(mergeCommit.title).toBe("Merge branch 'f' into 'main'");
    expect(mergeCommit.message).toBe(
      `Merge branch 'f' into 'main'\n\nx\n\nSee merge request ${ns.fullPath}!1`,
    );
    const again = await h.call('PUT', `/projects/${ns.id}/merge_requests/1/merge`, { ns });
    expect(again).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
    const list = await h.call('GET', `/projects/${ns.id}/merge_requests?state=merged`, { ns });
    expect(z.array(mergeRequestEntity).parse(list.body)).toHaveLength(1);
  });

  it('When a commit names a branch too long for git to store, then 400 "Branch name is invalid" and nothing is recorded', async () => {
    const ns = projectNamespace();
    const long = await commitOn(ns, 'x'.repeat(256), 'too long');
    expect(long).toMatchObject({ status: 400, body: { message: 'Branch name is invalid' } });
    const list = await h.call('GET', `/projects/${ns.id}/repository/commits`, { ns });
    expect(list.body).toEqual([]);
  });

  it('When someone below Developer merges, then 401 as can_be_merged_by? answers, and 404 for a Guest who cannot read it', async () => {
    const ns = projectNamespace({ visibility: 'private' });
    await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      as: DEVELOPER,
      json: { source_branch: 'f', target_branch: 'main', title: 'x' },
    });
    const merge = `/projects/${ns.id}/merge_requests/1/merge`;
    const reporter = await h.call('PUT', merge, { ns, as: REPORTER });
    expect(reporter).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    const guest = await h.call('PUT', merge, { ns, as: GUEST });
    expect(guest).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    const still = await h.call('GET', `/projects/${ns.id}/merge_requests/1`, { ns, as: DEVELOPER });
    expect(mergeRequestEntity.parse(still.body).state).toBe('opened');
  });

  it('When a snippet is created, read and missing, then 201, 200 and 404 "404 Snippet Not Found"', async () => {
    const ns = projectNamespace();
    const res = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: { title: 'Snip', file_name: 'a.rb', content: 'puts 1', visibility: 'internal' },
    });
    expect(res.status).toBe(201);
    const snippet = snippetEntity.parse(res.body);
    expect(snippet).toMatchObject({
      title: 'Snip',
      file_name: 'a.rb',
      visibility: 'internal',
      author: { id: OWNER.id },
    });
    const read = await h.call('GET', `/projects/${ns.id}/snippets/${snippet.id}`, { ns });
    expect(snippetEntity.parse(read.body).id).toBe(snippet.id);
    const missing = await h.call('GET', `/projects/${ns.id}/snippets/999999`, { ns });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    const noContent = await h.call('POST', `/projects/${ns.id}/snippets`, { ns, json: { title: 'x' } });
    expect(noContent).toMatchObject({
      status: 400,
      body: { error: 'files, content are missing, exactly one parameter must be provided' },
    });
  });

  it('When an epic is created and read on a higher tier, then 201 and 200; unknown or on free, then 403', async () => {
    const ns = groupNamespace();
    const res = await h.call('POST', `/groups/${ns.id}/epics`, { ns, json: { title: 'Roadmap' } });
    expect(res.status).toBe(201);
    const epic = epicEntity.parse(res.body);
    expect(epic).toMatchObject({
      iid: 1,
      group_id: ns.id,
      state: 'opened',
      web_url: `${ns.webUrl}/-/epics/1`,
    });
    const read = await h.call('GET', `/groups/${ns.id}/epics/1`, { ns });
    expect(epicEntity.parse(read.body).id).toBe(epic.id);
    const list = await h.call('GET', `/groups/${ns.id}/epics`, { ns });
    expect(z.array(epicEntity).parse(list.body)).toHaveLength(1);
    const unknown = await h.call('GET', `/groups/${ns.id}/epics/99`, { ns });
    expect(unknown).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const free = await h.call('GET', `/groups/${ns.id}/epics`, { ns, tier: 'free' });
    expect(free).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });
});
