import { DOMAIN_EVENT_TYPES, EVENT_STREAM } from '@gl/contracts';
import { replayStream } from './replay';
import { envelope, targetEvent } from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';
import { useHarness } from '@gl/testing';

const D = DOMAIN_EVENT_TYPES.discussions;

describe('replay', () => {
  const h = useHarness(startEventsHarness);

  const lastSequence = async () => (await h.runtime.bus.jsm.streams.info(EVENT_STREAM)).state.last_seq;
  const count = (projectId: number) => h.instance.models.activities.countDocuments({ projectId });

  it('When the stream is replayed from a sequence twice, then each event is recorded once and invalid ones are skipped', async () => {
    const projectId = 7_001;
    const from = (await lastSequence()) + 1;
    for (let iid = 1; iid <= 5; iid++) {
      await h.runtime.bus.publish(
        targetEvent(D.issueOpened, projectId, {
          targetId: iid,
          targetIid: iid,
          targetTitle: `Replayed ${iid}`,
        }),
      );
    }
    await h.runtime.bus.publish(envelope({ type: D.issueOpened, projectId, data: { broken: true } }));
    const first = await replayStream(
      h.runtime.bus,
      h.instance.recorder,
      { sequence: from },
      h.runtime.logger,
    );
    expect(first).toMatchObject({ read: 6, skipped: 1, lastSequence: from + 5 });
    expect(await count(projectId)).toBe(5);
    await replayStream(h.runtime.bus, h.instance.recorder, { sequence: from }, h.runtime.logger);
    expect(await count(projectId)).toBe(5);
  });

  it('When the stream is replayed from a time, then the events since then are recorded', async () => {
    const projectId = 7_002;
    const since = new Date();
    await h.runtime.bus.publish(
      targetEvent(D.issueClosed, projectId, { targetId: 1, targetIid: 1, targetTitle: 'T' }),
    );
    const result = await replayStream(h.runtime.bus, h.instance.recorder, { time: since }, h.runtime.logger);
    expect(result.read).toBeGreaterThanOrEqual(1);
    expect(await count(projectId)).toBe(1);
  });

  it('When the start sequence is past the end, then nothing is read', async () => {
    const result = await replayStream(
      h.runtime.bus,
      h.instance.recorder,
      { sequence: (await lastSequence()) + 10 },
      h.runtime.logger,
    );
    expect(result.read).toBe(0);
  });
});
