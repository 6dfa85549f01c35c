import type { InfraHandle } from '@gl/infra';
import type { RunningStack } from '@gl/launcher';
import { settledTag, unique } from './e2e.helpers';
import { startOwnStack } from './own-stack';

/**
 * Version-based 304s at two gateway processes (a stack of its own): the versions live in the bus's
 * key-value bucket, not in a gateway, so a tag one gateway gave is a 304 at the other, and a write
 * answered through one is seen through the other at once (the service bumps before it answers).
 */
const ROOT_TOKEN = 'glpat-versioned-reads-root-token-00';

describe('version-based conditional reads across gateway replicas', () => {
  let infra: InfraHandle;
  let stack: RunningStack;
  const headers = { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' };

  beforeAll(async () => {
    ({ infra, stack } = await startOwnStack('versions', ROOT_TOKEN, { gateways: 2 }));
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await infra?.stop();
  });

  const call = (gateway: number, path: string, init: RequestInit = {}) =>
    fetch(`${stack.gatewayUrls[gateway]}/api/v4${path}`, {
      ...init,
      headers: { ...headers, ...init.headers },
    });
  const post = async (gateway: number, path: string, body: Record<string, unknown>) => {
    const res = await call(gateway, path, { method: 'POST', body: JSON.stringify(body) });
    expect([path, res.status]).toEqual([path, 201]);
    return (await res.json()) as Record<string, unknown>;
  };

  it('When one gateway tagged a read, then the other answers that tag with 304, and after a write through it with the new answer', async () => {
    expect(stack.gatewayUrls).toHaveLength(2);
    const path = unique('v-');
    const group = await post(0, '/groups', { name: path, path });
    const project = await post(0, '/projects', { path: 'polled', namespace_id: group.id });
    const issue = await post(0, `/projects/${project.id as number}/issues`, { title: 'Polled' });
    const notes = `/projects/${project.id as number}/issues/${issue.iid as number}/notes`;
    await post(0, notes, { body: 'first' });

    const tag = await settledTag((current) =>
      call(0, notes, { headers: current ? { 'If-None-Match': current } : {} }),
    );
    const elsewhere = await call(1, notes, { headers: { 'If-None-Match': tag } });
    expect({ status: elsewhere.status, etag: elsewhere.headers.get('etag') }).toEqual({
      status: 304,
      etag: tag,
    });

    await post(1, notes, { body: 'second, through the other gateway' });
    const after = await call(0, notes, { headers: { 'If-None-Match': tag } });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { body: string }[]).map((n) => n.body)).toContain(
      'second, through the other gateway',
    );
  });
});
