import type { Counter } from 'prom-client';
import { REGISTRY_EVENTS_MEDIA_TYPE } from '@gl/contracts';
import { useHarness } from '@gl/testing';
import { SECRET, digestOf, pushEvent, startRegistryHarness } from './testing/registry.harness';

describe('POST /container_registry_event/events with malformed events', () => {
  const h = useHarness(startRegistryHarness);

  /** `registry_notifications_dropped_total` by reason, as /metrics shows it. */
  async function droppedByReason(): Promise<Record<string, number>> {
    const metric = h.runtime.metrics.registry.getSingleMetric('registry_notifications_dropped_total');
    if (!metric) return {};
    const { values } = await (metric as Counter<'reason'>).get();
    return Object.fromEntries(values.map((v) => [String(v.labels.reason), v.value]));
  }

  const post = (body: string) =>
    h.call('POST', '/container_registry_event/events', {
      as: null,
      body,
      headers: { 'content-type': REGISTRY_EVENTS_MEDIA_TYPE, authorization: SECRET },
    });

  it('When events are malformed, then 200, nothing of them is stored, each is counted and the log is bounded', async () => {
    const p = await h.seedProject('drop-group/drop');
    const warn = jest.spyOn(h.runtime.logger, 'warn');
    const before = await droppedByReason();
    const huge = pushEvent(`${p.fullPath}/${'a'.repeat(1.1 * 1024 * 1024)}`, 'v1', digestOf('huge'));
    const nul = pushEvent(`${p.fullPath}/a\u0000b`, 'v1', digestOf('nul'));
    const badTag = pushEvent(p.fullPath, 'v1\u0000', digestOf('tag'));
    const badDigest = pushEvent(p.fullPath, 'v2', '../../v2/other/manifests/latest');
    const good = pushEvent(p.fullPath, 'ok', digestOf('ok'));
    // 1e400 is no JSON number a registry writes; JavaScript reads it as Infinity.
    const infinite = JSON.stringify(pushEvent(p.fullPath, 'v3', digestOf('inf'))).replace(
      '"size":528',
      '"size":1e400',
    );
    const body = `{"events":[${[huge, nul, badTag, badDigest, good].map((e) => JSON.stringify(e)).join(',')},${infinite}]}`;

    const reply = await post(body);

    expect(reply).toMatchObject({ status: 200, body: {} });
    const repositories = await h.models.repositories.find({ projectId: p.id }).lean();
    expect(repositories.map((r) => r.name)).toEqual(['']);
    const tags = await h.models.tags.find({ repositoryId: repositories[0]!._id }).lean();
    expect(tags.map((t) => t.name)).toEqual(['ok']);
    const after = await droppedByReason();
    const grew = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
    expect(['invalid_repository', 'invalid_tag', 'invalid_digest', 'invalid_event'].map(grew)).toEqual([
      2, 1, 1, 1,
    ]);
    // One warning for the request, with counts and a few short samples: never the megabyte name.
    const warnings = warn.mock.calls.filter(
      (call) => call[1] === 'malformed registry notification events dropped',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]![0]).toMatchObject({
      dropped: { invalid_repository: 2, invalid_tag: 1, invalid_digest: 1, invalid_event: 1 },
      samples: [
        { reason: 'invalid_repository', index: 0 },
        { reason: 'invalid_repository', index: 1 },
        { reason: 'invalid_tag', index: 2 },
      ],
    });
    expect(JSON.stringify(warnings[0]![0]).length).toBeLessThan(2000);
    warn.mockRestore();
  });

  it('When the body has no events array, then 200 and it is counted as an invalid envelope', async () => {
    const before = (await droppedByReason()).invalid_envelope ?? 0;
    expect((await post('{"events":{"action":"push"}}')).status).toBe(200);
    expect((await droppedByReason()).invalid_envelope).toBe(before + 1);
  });

  it('When events are merely of no interest (pull, blob, untagged), then nothing is counted', async () => {
    const p = await h.seedProject('drop-group/quiet');
    const before = await droppedByReason();
    const blob = pushEvent(p.fullPath, 'x', digestOf('blob'));
    blob.target.mediaType = 'application/octet-stream';
    const untagged = pushEvent(p.fullPath, '', digestOf('untagged'));
    const pull = { ...pushEvent(p.fullPath, 'v1', digestOf('pull')), action: 'pull' };
    expect((await h.notify([blob, untagged, pull])).status).toBe(200);
    expect(await droppedByReason()).toEqual(before);
  });
});
