import { z } from 'zod';
import {
  commitBasicEntity,
  commitEntity,
  diffEntity,
  mergeRequestChangesEntity,
  mergeRequestEntity,
  type NamespaceContext,
} from '@gl/contracts';
import { DEVELOPER, GUEST, REPORTER, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

type Action = {
  action: string;
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: string;
};

/**
 * lib/api/merge_requests.rb `commits`, `changes` and `diffs`: the commits of the source branch and the
 * files they changed against what the target held, as the commits API recorded them.
 */
describe('Merge request commits, changes and diffs', () => {
  const h = useHarness(startDiscussionsHarness);

  async function commit(ns: NamespaceContext, branch: string, actions: Action[], start?: string) {
    const res = await h.call('POST', `/projects/${ns.id}/repository/commits`, {
      ns,
      as: DEVELOPER,
      json: { branch, commit_message: `${branch}: ${actions.length}`, actions, start_branch: start },
    });
    expect(res.status).toBe(201);
    return commitEntity.parse(res.body);
  }

  /** main: README.md and old.txt; feature: README.md changed, a.txt created then moved, old.txt deleted. */
  async function changedProject(visibility: 'private' | 'public' = 'private') {
    const ns = projectNamespace({ visibility });
    await commit(ns, 'main', [
      { action: 'create', file_path: 'README.md', content: 'hello\n' },
      { action: 'create', file_path: 'old.txt', content: 'x\n' },
    ]);
    const first = await commit(
      ns,
      'feature',
      [
        { action: 'update', file_path: 'README.md', content: 'hello\nworld\n' },
        { action: 'create', file_path: 'a.txt', content: 'a\n' },
      ],
      'main',
    );
    const second = await commit(ns, 'feature', [
      { action: 'move', file_path: 'b.txt', previous_path: 'a.txt', content: 'b\n' },
      { action: 'delete', file_path: 'old.txt' },
      {
        action: 'create',
        file_path: 'logo.png',
        content: Buffer.from([0xff, 0xd8, 0xff]).toString('base64'),
        encoding: 'base64',
      },
    ]);
    const created = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      as: DEVELOPER,
      json: { source_branch: 'feature', target_branch: 'main', title: 'Feature' },
    });
    const mr = mergeRequestEntity.parse(created.body);
    return { ns, path: `/projects/${ns.id}/merge_requests/${mr.iid}`, commits: [second.id, first.id] };
  }

  it('When a reporter lists the commits, then the source branch commits come newest first, without stats', async () => {
    const { ns, path, commits } = await changedProject();
    const res = await h.call('GET', `${path}/commits`, { ns, as: REPORTER });
    expect(res.status).toBe(200);
    const list = z.array(commitBasicEntity.strict()).parse(res.body);
    expect(list.map((c) => c.id)).toEqual(commits);
    expect(res.headers.get('x-total')).toBe('2');
    const page = await h.call('GET', `${path}/commits?per_page=1&page=2`, { ns, as: REPORTER });
    expect(
      z
        .array(commitBasicEntity)
        .parse(page.body)
        .map((c) => c.id),
    ).toEqual([commits[1]]);
  });

  it('When a reporter reads the changes, then each file is diffed against the target as git shows it', async () => {
    const { ns, path } = await changedProject();
    const res = await h.call('GET', `${path}/changes`, { ns, as: REPORTER });
    expect(res.status).toBe(200);
    const body = mergeRequestChangesEntity.parse(res.body);
    expect(body.overflow).toBe(false);
    expect(body.changes).toEqual([
      {
        old_path: 'README.md',
        new_path: 'README.md',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        generated_file: false,
        diff: '@@ -1 +1,2 @@\n hello\n+world\n',
      },
      expect.objectContaining({
        old_path: 'b.txt',
        new_path: 'b.txt',
        new_file: true,
        a_mode: '0',
        diff: '@@ -0,0 +1 @@\n+b\n',
      }),
      expect.objectContaining({
        new_path: 'logo.png',
        new_file: true,
        diff: 'Binary files a/logo.png and b/logo.png differ\n',
      }),
      expect.objectContaining({
        old_path: 'old.txt',
        deleted_file: true,
        b_mode: '0',
        diff: '@@ -1 +0,0 @@\n-x\n',
      }),
    ]);
  });

  it('When the diffs are paged with unidiff, then each page carries git file headers and X-Total counts files', async () => {
    const { ns, path } = await changedProject();
    const res = await h.call('GET', `${path}/diffs?per_page=2&page=2&unidiff=true`, { ns, as: REPORTER });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    const diffs = z.array(diffEntity).parse(res.body);
    expect(diffs.map((d) => d.diff)).toEqual([
      '--- /dev/null\n+++ b/logo.png\nBinary files a/logo.png and b/logo.png differ\n',
      '--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
    ]);
  });

  it('When the merge request is merged and its branch moves on, then it keeps the commits it merged', async () => {
    const { ns, path, commits } = await changedProject();
    const merged = await h.call('PUT', `${path}/merge`, { ns, as: DEVELOPER, json: {} });
    expect(merged.status).toBe(200);
    await commit(ns, 'feature', [{ action: 'create', file_path: 'later.txt', content: 'later\n' }]);
    const list = z
      .array(commitBasicEntity)
      .parse((await h.call('GET', `${path}/commits`, { ns, as: REPORTER })).body);
    expect(list.map((c) => c.id)).toEqual(commits);
    const changes = mergeRequestChangesEntity.parse(
      (await h.call('GET', `${path}/changes`, { ns, as: REPORTER })).body,
    );
    expect(changes.changes.map((c) => c.new_path)).not.toContain('later.txt');
  });

  it('When a branch has no commits recorded, then the lists are empty', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      as: DEVELOPER,
      json: { source_branch: 'feature', target_branch: 'main', title: 'Empty' },
    });
    const { iid } = mergeRequestEntity.parse(created.body);
    const path = `/projects/${ns.id}/merge_requests/${iid}`;
    expect((await h.call('GET', `${path}/commits`, { ns, as: REPORTER })).body).toEqual([]);
    expect((await h.call('GET', `${path}/changes`, { ns, as: REPORTER })).body).toMatchObject({
      changes: [],
      overflow: false,
    });
  });

  it('When a guest of a private project or anyone with an unknown iid asks, then 403 and 404', async () => {
    const { ns, path } = await changedProject();
    for (const suffix of ['commits', 'changes', 'diffs']) {
      expect(await h.call('GET', `${path}/${suffix}`, { ns, as: GUEST })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      });
      const unknown = await h.call('GET', `/projects/${ns.id}/merge_requests/999/${suffix}`, {
        ns,
        as: REPORTER,
      });
      expect(unknown).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    }
  });
});
