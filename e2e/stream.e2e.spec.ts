import { spawn } from 'node:child_process';
import { EventSource } from 'eventsource';
import { activityEventEntity, type ActivityEventEntity } from '@gl/contracts';
import { api, eventually, gatewayUrl, unique } from './e2e.helpers';

/**
 * The live activity streams through the gateway, with the clients people use: the `eventsource` package
 * (WHATWG EventSource for Node: automatic reconnection with Last-Event-ID) and `curl -N`.
 */
interface Received {
  id: string;
  event: string;
  entity: ActivityEventEntity;
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

const post = (path: string, body: unknown, token?: string) =>
  api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(token ? { token } : {}),
  });

/** An EventSource that sends the token as a header (its `fetch` option) and records every event type given. */
function eventSource(path: string, token: string, types: string[], lastEventId?: string) {
  const received: Received[] = [];
  const errors: unknown[] = [];
  const source = new EventSource(`${gatewayUrl()}/api/v4${path}`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...init?.headers,
          'PRIVATE-TOKEN': token,
          ...(lastEventId && !(init?.headers as Record<string, string>)?.['Last-Event-ID']
            ? { 'Last-Event-ID': lastEventId }
            : {}),
        },
      }),
  });
  for (const type of types) {
    source.addEventListener(type, (message) => {
      received.push({
        id: message.lastEventId,
        event: type,
        entity: activityEventEntity.parse(JSON.parse(message.data as string)),
      });
    });
  }
  source.onerror = (err) => errors.push(err);
  const opened = new Promise<void>((resolve) => source.addEventListener('open', () => resolve()));
  return { source, received, errors, opened };
}

describe('live activity streams through the gateway', () => {
  let user: { id: number; token: string; tokenId: number };
  let projectId: number;
  const sources: EventSource[] = [];

  const issue = (title: string, token = user.token) =>
    post(`/projects/${projectId}/issues`, { title }, token).then((r) => json(r, 201));

  beforeAll(async () => {
    const username = unique('st');
    const created = await json<{ id: number }>(
      await post('/users', {
        username,
        name: `Stream ${username}`,
        email: `${username}@example.com`,
        password: 'correct-horse-battery-staple',
      }),
      201,
    );
    const token = await json<{ id: number; token: string }>(
      await post(`/users/${created.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] }),
      201,
    );
    user = { id: created.id, token: token.token, tokenId: token.id };
    projectId = (await json<{ id: number }>(await post('/projects', { path: unique('sp') }, user.token), 201))
      .id;
  });
  afterEach(() => {
    for (const source of sources.splice(0)) source.close();
  });

  it('When an issue is opened, then an EventSource gets it with its id, its action and the /events entity', async () => {
    const es = eventSource(`/projects/${projectId}/events/stream`, user.token, ['opened']);
    sources.push(es.source);
    await es.opened;
    await issue('streamed issue');
    await eventually(
      async () => es.received.length,
      (n) => n >= 1,
    );
    const [got] = es.received;
    expect(got!.entity).toMatchObject({
      target_title: 'streamed issue',
      action_name: 'opened',
      author_id: user.id,
    });
    expect(got!.id).toBe(String(got!.entity.id));
    const listed = activityEventEntity
      .array()
      .parse(await json(await api(`/projects/${projectId}/events?per_page=1`, { token: user.token }), 200));
    expect(listed[0]).toEqual(got!.entity);
  });

  it('When the client comes back with Last-Event-ID, then it gets what it missed, once, then live events', async () => {
    const first = eventSource(`/projects/${projectId}/events/stream`, user.token, ['opened']);
    sources.push(first.source);
    await first.opened;
    await issue('seen-1');
    await eventually(
      async () => first.received.length,
      (n) => n >= 1,
    );
    first.source.close();
    await issue('missed-1');
    await issue('missed-2');
    const second = eventSource(
      `/projects/${projectId}/events/stream`,
      user.token,
      ['opened'],
      first.received[0]!.id,
    );
    sources.push(second.source);
    await second.opened;
    await issue('live-1');
    await eventually(
      async () => second.received.length,
      (n) => n >= 3,
    );
    expect(second.received.map((r) => r.entity.target_title)).toEqual(['missed-1', 'missed-2', 'live-1']);
  });

  it('When curl -N follows the stream, then each event arrives as it happens, unbuffered', async () => {
    const curl = spawn('curl', [
      '-N',
      '-s',
      '-H',
      `PRIVATE-TOKEN: ${user.token}`,
      `${gatewayUrl()}/api/v4/projects/${projectId}/events/stream?action=created&target_type=issue`,
    ]);
    let out = '';
    curl.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    try {
      await eventually(
        async () => out,
        (text) => text.includes('retry:'),
      );
      await issue('curl issue');
      const text = await eventually(
        async () => out,
        (t) => t.includes('curl issue'),
      );
      const block = text.split('\n\n').find((b) => b.includes('curl issue'))!;
      expect(block).toMatch(/^id: \d+\nevent: opened\ndata: \{.*"target_title":"curl issue".*\}$/);
    } finally {
      curl.kill();
    }
  });

  it('When the stream’s token is revoked, then the stream ends and EventSource’s reconnection is refused', async () => {
    const second = await json<{ id: number; token: string }>(
      await post(`/users/${user.id}/personal_access_tokens`, { name: 'revoke-me', scopes: ['api'] }),
      201,
    );
    const es = eventSource(`/projects/${projectId}/events/stream`, second.token, ['opened']);
    sources.push(es.source);
    await es.opened;
    const revoked = await api(`/personal_access_tokens/${second.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    await eventually(
      async () => es.source.readyState,
      (state) => state === EventSource.CLOSED,
      20_000,
    );
    expect(es.errors.length).toBeGreaterThan(0);
  }, 30_000);

  it('When the caller may not see the project, or has no token for /events/stream, then the lists’ answers', async () => {
    const other = await json<{ id: number }>(await post('/projects', { path: unique('hidden') }), 201);
    const hidden = await api(`/projects/${other.id}/events/stream`, { token: user.token });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: '404 Project Not Found' });
    const anonymous = await api(`/events/stream`, { token: null });
    expect(anonymous.status).toBe(401);
  });
});
