import { api, eventually, gitlab, settledTag, unique } from './e2e.helpers';

interface Answer {
  status: number;
  etag: string | null;
  body: string;
}

async function read(path: string, token: string, tag?: string): Promise<Answer> {
  const res = await api(path, { token, headers: tag ? { 'If-None-Match': tag } : {} });
  return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
}

async function send(method: string, path: string, token: string, body: Record<string, unknown>) {
  const res = await api(path, {
    method,
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> };
}

/** The tag `path` settles on for `token` (e2e.helpers.ts). */
const settled = (path: string, token: string): Promise<string> =>
  settledTag((tag) => api(path, { token, headers: tag ? { 'If-None-Match': tag } : {} }));

/**
 * A settled tag polled once more. Other suites write beside this one (a user or project they create bumps
 * `identity.all`, which every read depends on), so a bump may land between the two reads: the pair is
 * taken again, a few times, until none did. A gateway that never answered 304 fails every time.
 */
async function pollUnchanged(path: string, token: string): Promise<{ tag: string; again: Answer }> {
  for (let attempt = 1; ; attempt++) {
    const tag = await settled(path, token);
    const again = await read(path, token, tag);
    if (again.status === 304 || attempt === 5) return { tag, again };
  }
}

/**
 * Version-based conditional GETs (libs/service-kit/src/bus/resource-versions.ts): the gateway answers a
 * polled read's If-None-Match from the versions every write bumps, without asking the service; a write
 * in the namespace, a change another service sends over the bus, and a change of the caller's access each
 * make the old tag get the full answer, and writes elsewhere leave it alone.
 */
describe('version-based conditional reads', () => {
  const root = gitlab();
  let token: string;
  let groupId: number;
  let first: string;
  let second: string;
  let issuePath: string;
  let otherIssuePath: string;

  beforeAll(async () => {
    const username = unique('vers');
    const user = await root.Users.create({
      username,
      name: `Versions ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    token = (await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api'])).token;
    const path = unique('vers-');
    groupId = (await send('POST', '/groups', token, { name: path, path })).json.id as number;
    const project = async (name: string) =>
      `/projects/${(await send('POST', '/projects', token, { path: name, namespace_id: groupId })).json.id as number}`;
    first = await project('first');
    second = await project('second');
    expect(
      (await send('POST', `/groups/${groupId}/labels`, token, { name: 'polled', color: '#00F' })).status,
    ).toBe(201);
    const issue = async (p: string) =>
      (await send('POST', `${p}/issues`, token, { title: 'Polled', labels: 'polled' })).json.iid as number;
    issuePath = `${first}/issues/${await issue(first)}`;
    otherIssuePath = `${second}/issues/${await issue(second)}`;
  });

  it('When issues, discussions, the group’s issues by label and its labels are polled unchanged, then 304', async () => {
    for (const path of [
      issuePath,
      `${issuePath}/discussions`,
      `/groups/${groupId}/issues?labels=polled&state=opened`,
      `/groups/${groupId}/labels`,
    ]) {
      const { tag, again } = await pollUnchanged(path, token);
      expect({ path, status: again.status, body: again.body, etag: again.etag }).toEqual({
        path,
        status: 304,
        body: '',
        etag: tag,
      });
    }
  });

  // That writes elsewhere and refused writes leave a tag alone is shown where nothing else writes
  // (version-bumps.spec.ts, versioned-reads.spec.ts): here other suites write beside this one.
  it('When an issue of a sibling project changes, then the group’s issue list held under an old tag is answered in full', async () => {
    const groupList = `/groups/${groupId}/issues?state=opened`;
    const listTag = await settled(groupList, token);
    expect((await send('PUT', otherIssuePath, token, { title: 'Renamed elsewhere' })).status).toBe(200);
    const list = await read(groupList, token, listTag);
    expect(list.status).toBe(200);
    expect(list.body).toContain('Renamed elsewhere');
  });

  it('When the group’s label is renamed (boards) and the copy reaches discussions over the bus, then the issue’s old tag gets the new name', async () => {
    const tag = await settled(issuePath, token);
    const renamed = await send('PUT', `/groups/${groupId}/labels/polled`, token, { new_name: 'polled-now' });
    expect(renamed.status).toBe(200);
    const fresh = await eventually(
      () => read(issuePath, token, tag),
      (answer) => answer.status === 200 && answer.body.includes('polled-now'),
    );
    expect(fresh.status).toBe(200);
    expect(fresh.etag).not.toBe(tag);
  });

  it('When another user is given access, then their tag differs, and a tag held before their access changed is no 304', async () => {
    const username = unique('vers-late');
    const late = await root.Users.create({
      username,
      name: 'Late',
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const lateToken = (await root.Users.createPersonalAccessToken(late.id, 'e2e', ['api'])).token;
    await root.GroupMembers.add(groupId, 10, { userId: late.id });
    const guestTag = await settled(issuePath, lateToken);
    expect(guestTag).not.toBe(await settled(issuePath, token));
    await root.GroupMembers.edit(groupId, late.id, 30);
    expect((await read(issuePath, lateToken, guestTag)).status).toBe(200);
  });
});
