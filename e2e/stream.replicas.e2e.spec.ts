import { request, type ClientRequest } from 'node:http';
import type { InfraHandle } from '@gl/infra';
import type { RunningStack } from '@gl/launcher';
import { eventually } from './e2e.helpers';
import { startOwnStack } from './own-stack';

/**
 * Live activity streams with two events and two discussions replicas behind the gateway (a stack of its own):
 * streams opened in turn land on both events replicas, issues are opened concurrently so both replicas'
 * consumers record batches side by side, and every stream must still get every event once, all in the same
 * order; a client that reconnects with Last-Event-ID (to the other replica) goes on without gap or repeat.
 */
const ROOT_TOKEN = 'glpat-stream-replicas-root-token-0000';
const CLIENTS = 8;

interface Follower {
  req: ClientRequest;
  ids: number[];
  titles: string[];
}

describe('live activity streams on two events replicas', () => {
  let infra: InfraHandle;
  let stack: RunningStack;
  let projectId: number;
  const followers: Follower[] = [];

  const api = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${stack.gatewayUrl}/api/v4${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  function follow(lastEventId?: number): Promise<Follower> {
    return new Promise((resolve, reject) => {
      const follower: Follower = { req: undefined as never, ids: [], titles: [] };
      const headers: Record<string, string> = { 'PRIVATE-TOKEN': ROOT_TOKEN };
      if (lastEventId !== undefined) headers['Last-Event-ID'] = String(lastEventId);
      follower.req = request(
        `${stack.gatewayUrl}/api/v4/projects/${projectId}/events/stream?target_type=issue`,
        { headers },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const data = /^data: (.*)$/m.exec(block);
              if (!data) continue;
              const entity = JSON.parse(data[1]!) as { id: number; target_title: string };
              follower.ids.push(entity.id);
              follower.titles.push(entity.target_title);
            }
          });
          resolve(follower);
        },
      );
      follower.req.on('error', reject);
      follower.req.end();
      followers.push(follower);
    });
  }

  async function openIssues(prefix: string, count: number): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < count) {
          const n = next++;
          await api(`/projects/${projectId}/issues`, { title: `${prefix}-${n}` });
        }
      }),
    );
  }

  beforeAll(async () => {
    ({ infra, stack } = await startOwnStack('stream-replicas', ROOT_TOKEN, {
      replicas: { events: 2, discussions: 2 },
    }));
    projectId = (await api<{ id: number }>('/projects', { path: 'streamed' })).id;
  }, 180_000);

  afterAll(async () => {
    for (const f of followers) f.req.destroy();
    await stack?.stop();
    await infra?.stop();
  });

  it('When issues are opened concurrently, then every stream on either replica gets each once, in one order', async () => {
    expect(stack.replicaUrls.events).toHaveLength(2);
    const streams = [await follow(), await follow(), await follow(), await follow()];
    await openIssues('a', 60);
    await eventually(
      async () => streams.map((s) => s.ids.length),
      (counts) => counts.every((n) => n >= 60),
      60_000,
    );
    const [first, ...rest] = streams;
    expect(new Set(first!.titles)).toEqual(new Set(Array.from({ length: 60 }, (_, i) => `a-${i}`)));
    expect(new Set(first!.ids).size).toBe(60);
    for (const other of rest) expect(other.ids).toEqual(first!.ids);

    // One client goes away after the first 30 and comes back with Last-Event-ID while more are opened.
    const resumeAfter = first!.ids[29]!;
    const [back] = await Promise.all([follow(resumeAfter), openIssues('b', 40)]);
    await eventually(
      async () => streams[1]!.ids.length,
      (n) => n >= 100,
      60_000,
    );
    await eventually(
      async () => back.ids.length,
      (n) => n >= 70,
      60_000,
    );
    expect([...first!.ids.slice(0, 30), ...back.ids]).toEqual(streams[1]!.ids);
  }, 180_000);
});
