import { randomUUID } from 'node:crypto';
import { createTestRuntime, eventually, type TestRuntime } from '@gl/testing';
import { createLogger } from '../logging';
import { openResourceVersions, readKeys, writeKeys, type ResourceVersions } from './resource-versions';

describe('resource versions on the bus', () => {
  let runtime: TestRuntime;
  let versions: ResourceVersions;
  // A service name of its own: other suites bump the bucket's shared keys meanwhile.
  const service = `svc${randomUUID().slice(0, 8)}`;
  const project = { kind: 'project' as const, id: 41, ancestorGroupIds: [40] };

  beforeAll(async () => {
    runtime = await createTestRuntime('resource-versions');
    versions = await openResourceVersions(runtime.bus);
  });
  afterAll(() => runtime.close());

  it('When keys were never bumped, then they read 0; after a bump each reads a newer version', async () => {
    const keys = readKeys(service, project).slice(1);
    expect(await versions.current(keys)).toEqual([0, 0]);
    await versions.bump(writeKeys(service, project));
    const [all, own] = await versions.current(keys);
    expect(all).toBe(0);
    expect(own).toBeGreaterThan(0);
    await versions.bump(writeKeys(service, project));
    expect((await versions.current(keys))[1]).toBeGreaterThan(own!);
    const group = await versions.current([`${service}.g.40`]);
    expect(group[0]).toBeGreaterThan(0);
  });

  it('When another process bumps, then a follower’s copy catches up with what the bucket says', async () => {
    const other = await openResourceVersions(runtime.bus);
    const known = await versions.follow(createLogger('versions-test', 'silent'));
    await other.bump([`${service}.all`]);
    const [now] = await versions.current([`${service}.all`]);
    const seen = await eventually(
      async () => known(`${service}.all`),
      (version) => version === now,
      5_000,
      20,
    );
    expect(seen).toBe(now);
  });
});
