import { api, gitlab, settledTag, unique } from './e2e.helpers';

interface Answer {
  status: number;
  etag: string | null;
  body: string;
  headers: Headers;
}

/** One read through the gateway: status, ETag and the body as text (empty for a 304). */
async function read(path: string, token: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await api(path, { token, headers });
  return { status: res.status, etag: res.headers.get('etag'), body: await res.text(), headers: res.headers };
}

/** The read settled (e2e.helpers.ts `settledTag`), with its 304. */
async function settled(path: string, token: string): Promise<Answer & { tag: string }> {
  const tag = await settledTag((current) =>
    api(path, { token, headers: current ? { 'If-None-Match': current } : {} }),
  );
  return { ...(await read(path, token, { 'If-None-Match': tag })), tag };
}

async function post(
  path: string,
  token: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const res = await api(path, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect([path, res.status]).toEqual([path, 201]);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * Conditional GETs through the whole stack (RFC 9110 §13.1.2; GitLab itself ignores If-None-Match on the
 * API, gitlab-org/gitlab#14357): every JSON read carries an ETag, the same read with If-None-Match holding
 * it is a bodiless 304, and the tag follows the answer: it changes after a write and differs between
 * callers who see different things. Services' answers (issues, notes, labels) pass the gateway's proxy
 * unchanged; the gateway's own (/user, /projects/:id) are tagged the same way.
 */
describe('conditional requests through the gateway', () => {
  const root = gitlab();
  let dev: { id: number; token: string };
  let guest: { id: number; token: string };
  let projectId: number;
  let groupId: number;
  let issueIid: number;
  let paths: Record<string, string>;

  async function createUser(): Promise<{ id: number; token: string }> {
    const username = unique('cond');
    const user = await root.Users.create({
      username,
      name: `Conditional ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    return { id: user.id, token: token.token };
  }

  beforeAll(async () => {
    dev = await createUser();
    guest = await createUser();
    const groupPath = unique('cond-');
    const group = await post('/groups', dev.token, {
      name: groupPath,
      path: groupPath,
      visibility: 'private',
    });
    groupId = group.id as number;
    const project = await post('/projects', dev.token, { path: 'polled', namespace_id: groupId });
    projectId = project.id as number;
    await root.ProjectMembers.add(projectId, 10, { userId: guest.id });
    await post(`/groups/${groupId}/labels`, dev.token, { name: 'polled', color: '#FF0000' });
    const p = `/projects/${projectId}`;
    issueIid = (await post(`${p}/issues`, dev.token, { title: 'Polled issue' })).iid as number;
    await post(`${p}/issues/${issueIid}/notes`, dev.token, { body: 'public comment' });
    await post(`${p}/issues/${issueIid}/notes`, dev.token, { body: 'internal remark', internal: true });
    paths = {
      issue: `${p}/issues/${issueIid}`,
      notes: `${p}/issues/${issueIid}/notes`,
      labels: `/groups/${groupId}/labels`,
      user: '/user',
      project: p,
    };
  });

  it('When an issue, its notes, a group’s labels, /user and a project are read, then each has an ETag and If-None-Match gets 304', async () => {
    for (const [name, path] of Object.entries(paths)) {
      const first = await read(path, dev.token);
      expect({ name, status: first.status }).toEqual({ name, status: 200 });
      expect({ name, tagged: /^W\/"[\w-]+"$/.test(first.etag ?? '') }).toEqual({ name, tagged: true });
      expect(first.headers.get('content-type')).toBe('application/json');

      // Other suites write beside this one (a user they create bumps `identity.all`, which every read
      // depends on), so a bump may land between these reads: they are taken again, a few times, until
      // none did. A gateway that never answered 304 fails every time.
      let again: Answer & { tag: string };
      let listed: Answer;
      for (let attempt = 1; ; attempt++) {
        again = await settled(path, dev.token);
        listed = await read(path, dev.token, { 'If-None-Match': `"other", ${again.tag.slice(2)}` });
        if ((again.status === 304 && listed.status === 304) || attempt === 5) break;
      }
      expect({ name, status: again.status, body: again.body }).toEqual({ name, status: 304, body: '' });
      expect(again.etag).toBe(again.tag);
      expect(again.headers.get('content-type')).toBeNull();
      expect({ name, status: listed.status }).toEqual({ name, status: 304 });
    }
  });

  it('When the request is HEAD, then it is tagged as the GET is, and 304 on a match', async () => {
    const get = await settled(paths.notes!, dev.token);
    const head = await api(paths.notes!, { method: 'HEAD', token: dev.token });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.tag);
    const matched = await api(paths.notes!, {
      method: 'HEAD',
      token: dev.token,
      headers: { 'If-None-Match': get.tag },
    });
    expect(matched.status).toBe(304);
  });

  it('When a comment is added, then the notes’ tag changes and the old tag gets 200 with the new list', async () => {
    const before = await read(paths.notes!, dev.token);
    const note = await post(paths.notes!, dev.token, { body: 'a newer comment' });
    const after = await read(paths.notes!, dev.token, { 'If-None-Match': before.etag! });
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.etag);
    expect((JSON.parse(after.body) as { id: number }[]).map((n) => n.id)).toContain(note.id);
    const write = await api(paths.notes!, {
      method: 'POST',
      token: dev.token,
      headers: { 'content-type': 'application/json', 'If-None-Match': '*' },
      body: JSON.stringify({ body: 'writes are never conditional here' }),
    });
    expect(write.status).toBe(201);
    expect(write.headers.get('etag')).toBeNull();
  });

  it('When two users see different notes of the same issue, then their tags differ and one’s tag is no 304 for the other', async () => {
    const mine = await read(paths.notes!, dev.token);
    const theirs = await read(paths.notes!, guest.token);
    expect(mine.body).toContain('internal remark');
    expect(theirs.body).not.toContain('internal remark');
    expect(theirs.etag).not.toBe(mine.etag);
    expect((await read(paths.notes!, guest.token, { 'If-None-Match': mine.etag! })).status).toBe(200);
    expect((await read('/user', guest.token)).etag).not.toBe((await read('/user', dev.token)).etag);
  });

  it('When pages of a list hold different rows or headers, then their tags differ', async () => {
    const first = await read(`${paths.notes!}?per_page=1&page=1`, dev.token);
    const second = await read(`${paths.notes!}?per_page=1&page=2`, dev.token);
    expect(first.etag).not.toBe(second.etag);
    expect(
      (await read(`${paths.notes!}?per_page=1&page=2`, dev.token, { 'If-None-Match': first.etag! })).status,
    ).toBe(200);
  });

  it('When a request has no If-None-Match, or the answer is an error, then never a 304', async () => {
    for (const path of Object.values(paths)) {
      for (let i = 0; i < 2; i += 1)
        expect({ path, status: (await read(path, dev.token)).status }).toEqual({ path, status: 200 });
    }
    const missing = await read(`/projects/${projectId}/issues/999999`, dev.token, { 'If-None-Match': '*' });
    expect(missing.status).toBe(404);
    expect(missing.etag).toBeNull();
  });
});
