import { request as httpRequest } from 'node:http';
import { api, gatewayUrl, rootToken, unique } from './e2e.helpers';

interface RawAnswer {
  status: number;
  contentType: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Raw HTTP through the gateway: paths and headers leave byte for byte (fetch would re-encode or refuse
 * them), and response headers of any size are read (fetch stops at 16 KiB).
 */
function raw(
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    token?: boolean;
  } = {},
): Promise<RawAnswer> {
  const url = new URL(gatewayUrl());
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== false) headers['PRIVATE-TOKEN'] = rootToken();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers,
        maxHeaderSize: 256 * 1024,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const BAD_REQUEST = { status: 400, contentType: 'text/plain', body: 'Bad Request' };
const pick = ({ status, contentType, body }: RawAnswer) => ({ status, contentType, body });

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** Hostile input through the running stack: every answer a 4xx with GitLab's body, nothing stored. */
describe('bad input end to end', () => {
  let group: { id: number; full_path: string };
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    const path = unique('bad-input-');
    const created = await api('/groups', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: path, path, visibility: 'public' }),
    });
    expect(created.status).toBe(201);
    group = await json(created);
    const madeProject = await api('/projects', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'shop', namespace_id: group.id, visibility: 'public' }),
    });
    expect(madeProject.status).toBe(201);
    project = await json(madeProject);
  });

  describe('malformed strings (GitLab HandleMalformedStrings: 400 "Bad Request")', () => {
    it.each([
      '/api/v4/groups/%FF',
      '/api/v4/groups/%C0%AE',
      '/api/v4/groups/%',
      '/api/v4/groups/%ZZ/milestones',
      '/api/v4/projects/%FF/issues',
      '/api/v4/projects/%C0%AE/merge_requests/1/discussions',
      '/api/v4/users/%FF/events',
      '/api/v4/registry/repositories/%FF',
    ])('When %s is requested, then 400 "Bad Request"', async (path) => {
      expect(pick(await raw(path))).toEqual(BAD_REQUEST);
    });

    it.each(['/%ZZ/alerts/notify.json', '/%FF/alerts/notify.json', '/%/prometheus/alerts/notify.json'])(
      'When an alert is posted to %s with no token at all, then 400 "Bad Request"',
      async (path) => {
        const answer = await raw(path, { method: 'POST', token: false, body: '{}' });
        expect(pick(answer)).toEqual(BAD_REQUEST);
      },
    );

    it.each(['/api/v4/projects?search=%00', '/api/v4/groups?search=%00', '/api/v4/users?search=%00'])(
      'When %s is listed, then 400 "Bad Request"',
      async (path) => {
        expect(pick(await raw(path))).toEqual(BAD_REQUEST);
      },
    );

    it('When a service route gets a NUL in its query, then 400 "Bad Request"', async () => {
      expect(pick(await raw(`/api/v4/groups/${group.id}/milestones?search=%00`))).toEqual(BAD_REQUEST);
    });

    it('When a service route gets a NUL in its JSON body, then 400 "Bad Request" and nothing is created', async () => {
      const body = await raw(`/api/v4/projects/${project.id}/issues`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"nul\\u0000title"}',
      });
      expect(pick(body)).toEqual(BAD_REQUEST);
      const issues = await json<unknown[]>(await api(`/projects/${project.id}/issues`));
      expect(issues).toEqual([]);
    });
  });

  describe('strings that are not Unicode (a lone surrogate read back as U+FFFD)', () => {
    it('When an issue title or a project description holds "\\ud800", then 400 "Bad Request" and nothing changes', async () => {
      const issue = await raw(`/api/v4/projects/${project.id}/issues`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"lone \\ud800 surrogate"}',
      });
      expect(pick(issue)).toEqual(BAD_REQUEST);
      const described = await raw(`/api/v4/projects/${project.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"description":"lone \\udfff"}',
      });
      expect(pick(described)).toEqual(BAD_REQUEST);
      expect(await json<unknown[]>(await api(`/projects/${project.id}/issues?search=lone`))).toEqual([]);
      const read = await json<{ description: string }>(await api(`/projects/${project.id}`));
      expect(read.description).not.toContain('\ufffd');
    });
  });

  describe('request line length (nginx in front of GitLab: 8 KiB)', () => {
    it('When a paginated list is asked with an 8 KB query, then 200 and all four Link URLs carry it (was a 502)', async () => {
      for (let i = 0; i < 3; i++) {
        const made = await api(`/groups/${group.id}/milestones`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: `m${i}` }),
        });
        expect(made.status).toBe(201);
      }
      const query = `q=${'x'.repeat(8000)}`;
      const answer = await raw(`/api/v4/groups/${group.id}/milestones?page=2&per_page=1&${query}`);
      expect(answer.status).toBe(200);
      const link = String(answer.headers.link);
      expect(link.split(query)).toHaveLength(5);
      expect(link).toContain('rel="prev"');
      expect(link).toContain('rel="last"');
    });

    it('When a public paginated list is asked anonymously with an 8 KB query, then 200 with it in the Link', async () => {
      const query = `q=${'x'.repeat(8000)}`;
      const answer = await raw(`/api/v4/projects/${project.id}/events?per_page=1&${query}`, { token: false });
      expect(answer.status).toBe(200);
      expect(String(answer.headers.link)).toContain(query);
    });

    it.each([9 * 1024, 100 * 1024])(
      'When the query is %d bytes, then 414 "Request-URI Too Large", never a 502',
      async (size) => {
        const answer = await raw(`/api/v4/groups/${group.id}/milestones?q=${'x'.repeat(size)}`, {
          token: false,
        });
        expect(answer.status).toBe(414);
        expect(JSON.parse(answer.body)).toEqual({ message: '414 Request-URI Too Large' });
      },
    );
  });

  it('When a group milestone is renamed to a title in use, then 400 and it keeps its title (was a 500)', async () => {
    const post = (title: string) =>
      api(`/groups/${group.id}/milestones`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
    expect((await post('release-1')).status).toBe(201);
    const second = await json<{ id: number }>(await post('release-2'));
    const renamed = await api(`/groups/${group.id}/milestones/${second.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'release-1' }),
    });
    expect(renamed.status).toBe(400);
    expect(await renamed.json()).toEqual({ message: { title: ['has already been taken'] } });
    const reread = await json<{ title: string }>(await api(`/groups/${group.id}/milestones/${second.id}`));
    expect(reread.title).toBe('release-2');
  });

  it("When the registry notification carries a non-ASCII Authorization of the secret's length, then 401 (was a 500)", async () => {
    const secret = process.env.GL_TEST_REGISTRY_SECRET ?? '';
    expect(secret.length).toBeGreaterThan(1);
    // UTF-8 "é" is two bytes, read as two characters: as many as the secret has.
    const utf8 = 'é'.repeat(Math.floor(secret.length / 2)) + 'a'.repeat(secret.length % 2);
    const answer = await raw('/api/v4/container_registry_event/events', {
      method: 'POST',
      token: false,
      headers: {
        authorization: Buffer.from(utf8, 'utf8').toString('latin1'),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ events: [] }),
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual({ message: '401 Unauthorized' });
  });

  describe('JSON bodies', () => {
    const postIssue = (body: Buffer | string) =>
      raw(`/api/v4/projects/${project.id}/issues`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });

    it('When JSON nests 1,000 deep, then 400 "Parameters nested too deeply" (GitLab JsonValidation)', async () => {
      const answer = await postIssue(`{"title":"deep","labels":${'['.repeat(1000)}${']'.repeat(1000)}}`);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ error: 'Parameters nested too deeply' });
    });

    it('When JSON is not UTF-8, then 400 as a body that does not parse', async () => {
      const answer = await postIssue(
        Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ error: 'message body does not match declared format' });
    });

    it('When prototype keys come with the parameters, then they are ignored like any unknown parameter', async () => {
      const answer = await postIssue(
        '{"__proto__":{"confidential":true},"constructor":{"prototype":{}},"title":"proto"}',
      );
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toMatchObject({ title: 'proto', confidential: false });
    });

    it('When no issue was created by the refused bodies, then only the accepted one is listed', async () => {
      const issues = await json<{ title: string }[]>(await api(`/projects/${project.id}/issues`));
      expect(issues.map((i) => i.title)).toEqual(['proto']);
    });
  });

  describe('ids and repeated or array parameters', () => {
    it.each([
      ['/groups/99999999999999999999', 404, { message: '404 Group Not Found' }],
      ['/projects/99999999999999999999', 404, { message: '404 Project Not Found' }],
      ['/groups/-1', 404, { message: '404 Group Not Found' }],
      // GitLab's `/users` routes take digits only (`requirements: { id: /[0-9]*/ }`): the rest is no route.
      ['/users/99999999999999999999', 404, { message: '404 User Not Found' }],
      ['/users/0', 404, { message: '404 User Not Found' }],
      ['/users/-1', 404, { error: '404 Not Found' }],
      ['/users/abc', 404, { error: '404 Not Found' }],
      // `type: Integer` ids: every integer is looked up, so it answers as an unknown id does.
      ['/snippets/0', 404, { message: '404 Snippet Not Found' }],
      ['/snippets/-1', 404, { message: '404 Snippet Not Found' }],
      ['/snippets/99999999999999999999', 404, { message: '404 Snippet Not Found' }],
      ['/snippets/abc', 400, { error: 'id is invalid' }],
      ['/registry/repositories/0', 404, { message: '404 Not found' }],
    ])('When %s is read, then %d', async (path, status, body) => {
      const answer = await api(path);
      expect(answer.status).toBe(status);
      expect(await answer.json()).toEqual(body);
    });

    it.each(['0', '-1', '99999999999999999999'])(
      'When an issue iid is %s, then reading and subscribing both answer 404 as an unknown iid does',
      async (iid) => {
        for (const [method, suffix] of [
          ['GET', ''],
          ['POST', '/subscribe'],
        ]) {
          const answer = await api(`/projects/${project.id}/issues/${iid}${suffix}`, { method });
          expect([method, answer.status, await answer.json()]).toEqual([
            method,
            404,
            { message: '404 Not found' },
          ]);
        }
      },
    );

    it.each(['0', '99999999999999999999'])(
      'When a board id is %s, then 404 as an unknown board',
      async (id) => {
        const answer = await api(`/groups/${group.id}/boards/${id}`);
        expect(answer.status).toBe(404);
        expect(await answer.json()).toEqual({ message: '404 Not found' });
      },
    );

    it.each(['99999999999999999999', '-1', '0'])(
      'When a milestone id is %s, then 404 as an unknown milestone',
      async (id) => {
        const answer = await api(`/groups/${group.id}/milestones/${id}`);
        expect(answer.status).toBe(404);
        expect(await answer.json()).toEqual({ message: '404 Milestone Not Found' });
      },
    );

    it.each(['1e3', '0x10', 'abc'])(
      'When a milestone id is %s, then 400 "milestone_id is invalid"',
      async (id) => {
        const answer = await api(`/groups/${group.id}/milestones/${id}`);
        expect(answer.status).toBe(400);
        expect(await answer.json()).toEqual({ error: 'milestone_id is invalid' });
      },
    );

    it('When page is an array, then 400 "page is invalid"', async () => {
      const array = await api(`/groups/${group.id}/milestones?page[]=1`);
      expect(array.status).toBe(400);
      expect(await array.json()).toEqual({ error: 'page is invalid' });
    });

    it('When per_page repeats, then the last one wins', async () => {
      const repeated = await api(`/groups/${group.id}/milestones?per_page=1&per_page=2`);
      expect(repeated.status).toBe(200);
      expect(repeated.headers.get('x-per-page')).toBe('2');
    });
  });

  describe("GitLab's size limits", () => {
    it('When a note is 1,000,001 ASCII characters, then 400 with the note message, not a 413', async () => {
      const issue = await json<{ iid: number }>(
        await api(`/projects/${project.id}/issues`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'notes' }),
        }),
      );
      const note = await api(`/projects/${project.id}/issues/${issue.iid}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'n'.repeat(1_000_001) }),
      });
      expect(note.status).toBe(400);
      expect(await note.json()).toEqual({
        message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}',
      });
      const notes = await json<unknown[]>(await api(`/projects/${project.id}/issues/${issue.iid}/notes`));
      expect(notes).toEqual([]);
    });

    it('When an issue title is 256 characters and its description over 1 MiB, then 400 with both model messages', async () => {
      const answer = await api(`/projects/${project.id}/issues`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 't'.repeat(256), description: 'd'.repeat(1024 * 1024 + 1) }),
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        message: {
          title: ['is too long (maximum is 255 characters)'],
          description: ['is too long (1 MiB). The maximum size is 1 MiB.'],
        },
      });
    });

    it('When a group description is 256 characters, then 400 and the group keeps its description', async () => {
      const answer = await api(`/groups/${group.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'd'.repeat(256) }),
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        message: { description: ['is too long (maximum is 255 characters)'] },
      });
      const reread = await json<{ description: string }>(await api(`/groups/${group.id}`));
      expect(reread.description).toBe('');
    });
  });
});
