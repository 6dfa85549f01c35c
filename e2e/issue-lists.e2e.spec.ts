import { eventually } from '@gl/testing';
import { api, gitlab, runClient, unique } from './e2e.helpers';

interface Issue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  relative_position: number | null;
  confidential: boolean;
}

/**
 * A group board's columns filled as clients fill them: the group's issues with the list's criterion,
 * ordered by position (gitbeaker Issues.all({ groupId }), python-gitlab group.issues.list()), a card
 * moved with the reorder call, statistics, the instance lists, and the errors by raw HTTP.
 */
describe('issue lists and positions with real clients', () => {
  const root = gitlab();
  let groupId: number;
  let subgroupId: number;
  let appId: number;
  let libId: number;
  let label: string;
  let outsider: { id: number; token: string };

  async function createUserWithToken(): Promise<{ id: number; token: string }> {
    const username = unique('ilu');
    const user = await root.Users.create({
      username,
      name: `User ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    return { id: user.id, token: token.token };
  }

  beforeAll(async () => {
    const path = unique('ilg');
    label = unique('Doing');
    const group = await root.Groups.create(path, path, { visibility: 'public' });
    groupId = group.id;
    const sub = await root.Groups.create('sub', 'sub', { parentId: groupId, visibility: 'private' });
    subgroupId = sub.id;
    appId = (await root.Projects.create({ name: 'app', namespaceId: groupId, visibility: 'public' })).id;
    libId = (await root.Projects.create({ name: 'lib', namespaceId: subgroupId, visibility: 'private' })).id;
    for (const [projectId, title] of [
      [appId, 'first'],
      [libId, 'second'],
      [appId, 'third'],
    ] as const) {
      await root.Issues.create(projectId, title, { labels: label });
    }
    await root.Issues.create(appId, 'hidden', { labels: label, confidential: true });
    await root.Issues.create(appId, 'other column', { labels: unique('Done') });
    outsider = await createUserWithToken();
  });

  /** The board column as gitbeaker reads it, once the projection has seen the group's projects. */
  async function column(token?: string): Promise<Issue[]> {
    const client = token ? gitlab(token) : root;
    return (await client.Issues.all({
      groupId,
      labels: label,
      state: 'opened',
      orderBy: 'relative_position',
      sort: 'asc',
    } as never)) as unknown as Issue[];
  }

  it('When gitbeaker lists the group column ordered by position, then the issues of every project of the subtree, in creation order', async () => {
    const shown = await eventually(column, (issues) => issues.length === 4);
    expect(shown.map((i) => i.title)).toEqual(['first', 'second', 'third', 'hidden']);
    const positions = shown.map((i) => i.relative_position!);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('When an outsider lists the column, then neither the private subgroup project nor the confidential issue', async () => {
    expect((await column(outsider.token)).map((i) => i.title)).toEqual(['first', 'third']);
    const anonymous = await api(
      `/groups/${groupId}/issues?labels=${label}&order_by=relative_position&sort=asc`,
      {
        token: null,
      },
    );
    expect(anonymous.status).toBe(200);
    expect(((await anonymous.json()) as Issue[]).map((i) => i.title)).toEqual(['first', 'third']);
  });

  it('When gitbeaker moves a card between two others of another project, then the column shows it there', async () => {
    const [first, second, third] = await column();
    await root.Issues.reorder(appId, third!.iid, {
      moveAfterId: first!.id,
      moveBeforeId: second!.id,
    });
    expect((await column()).map((i) => i.title)).toEqual(['first', 'third', 'second', 'hidden']);
  });

  it('When the reorder ids are wrong, then GitLab answers 400, 422, 404 and 401', async () => {
    const [first] = await column();
    const put = (iid: number, body: unknown, token?: string | null) =>
      api(`/projects/${appId}/issues/${iid}/reorder`, {
        method: 'PUT',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const none = await put(first!.iid, {});
    expect([none.status, await none.json()]).toEqual([
      400,
      { error: 'move_after_id, move_before_id are missing, at least one parameter must be provided' },
    ]);
    const foreign = await put(first!.iid, { move_after_id: 2_000_000_000 });
    expect([foreign.status, await foreign.json()]).toEqual([
      422,
      { message: { error: 'Unprocessable Entity' } },
    ]);
    const missing = await put(9999, { move_after_id: first!.id });
    expect([missing.status, await missing.json()]).toEqual([404, { message: '404 Issue Not Found' }]);
    const anonymous = await put(first!.iid, { move_after_id: first!.id }, null);
    expect(anonymous.status).toBe(401);
    const stranger = await put(first!.iid, { move_after_id: first!.id }, outsider.token);
    expect(stranger.status).toBe(403);
  });

  it('When statistics are asked for the group, then counts by state of the same filters', async () => {
    const stats = (await root.IssuesStatistics.all({ groupId, labels: label })) as unknown as {
      statistics: { counts: Record<string, number> };
    };
    expect(stats.statistics.counts).toEqual({ all: 4, closed: 0, opened: 4 });
    const outsiders = await api(`/groups/${groupId}/issues_statistics?labels=${label}`, {
      token: outsider.token,
    });
    expect(await outsiders.json()).toEqual({ statistics: { counts: { all: 2, closed: 0, opened: 2 } } });
  });

  it('When python-gitlab lists the group, the instance and reorders, then it reads the same column', () => {
    const script = `
import json, os, gitlab
gl = gitlab.Gitlab(os.environ["GL_URL"], private_token=os.environ["GL_TOKEN"])
group = gl.groups.get(${groupId}, lazy=True)
column = group.issues.list(labels=["${label}"], state="opened", order_by="relative_position", sort="asc", get_all=True)
titles = [i.title for i in column]
assert titles == ["first", "third", "second", "hidden"], titles
mine = gl.issues.list(labels=["${label}"], get_all=True)
assert sorted(i.title for i in mine) == ["first", "hidden", "second", "third"], [i.title for i in mine]
issue = gl.projects.get(${appId}, lazy=True).issues.get(column[0].iid)
issue.reorder(move_after_id=column[2].id)
after = [i.title for i in group.issues.list(labels=["${label}"], order_by="relative_position", sort="asc", get_all=True)]
assert after == ["third", "second", "first", "hidden"], after
stats = group.issues_statistics.get()
assert stats.statistics["counts"]["all"] >= 5, stats.statistics
print(json.dumps({"ok": True, "checked": ["python-gitlab"]}))
`;
    expect(runClient('/usr/bin/python3', ['-c', script])).toEqual({
      status: 0,
      output: { ok: true, checked: ['python-gitlab'] },
      stderr: '',
    });
  });

  it('When /issues and /merge_requests are asked without a token, then 401 unless scope=all; unknown order_by is 400', async () => {
    const anonymous = await api('/issues', { token: null });
    expect([anonymous.status, await anonymous.json()]).toEqual([401, { message: '401 Unauthorized' }]);
    const all = await api(`/issues?scope=all&labels=${label}`, { token: null });
    expect(((await all.json()) as Issue[]).map((i) => i.title).sort()).toEqual(['first', 'third']);
    const mrs = await api('/merge_requests', { token: null });
    expect(mrs.status).toBe(401);
    const bad = await api(`/groups/${groupId}/issues?order_by=size`);
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'order_by does not have a valid value' }]);
    const pageZero = await api(`/projects/${appId}/issues?page=0&per_page=1`);
    expect(pageZero.status).toBe(200);
    expect(pageZero.headers.get('x-page')).toBe('1');
  });
});
