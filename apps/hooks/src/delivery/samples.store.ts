import { DOMAIN_EVENT_TYPES, type EventEnvelope } from '@gl/contracts';
import { isDuplicateKeyError } from '@gl/service-kit';
import type { DeliveryModels, HookSampleDoc } from './delivery.models';

const T = DOMAIN_EVENT_TYPES.discussions;

export type SampleKind = 'issue' | 'mergeRequest' | 'note';

/** The events that make a record its project's newest of its kind: its creation. */
const SAMPLED: Record<string, SampleKind> = {
  [T.issueOpened]: 'issue',
  [T.mergeRequestOpened]: 'mergeRequest',
  [T.noteCreated]: 'note',
};

/** The projects' newest issue, merge request and note events, which hook tests send again. */
export function createSampleStore(models: Pick<DeliveryModels, 'samples'>) {
  /** Keeps the event as its project's newest of its kind, unless a newer one is kept already. */
  async function record(event: EventEnvelope): Promise<void> {
    const kind = SAMPLED[event.type];
    if (!kind || event.projectId === null) return;
    try {
      await models.samples.updateOne(
        { _id: `${event.projectId}:${kind}`, occurredAt: { $lt: event.occurredAt } },
        { $set: { event, occurredAt: event.occurredAt } },
        { upsert: true },
      );
    } catch (err) {
      // A newer sample is there already (the upsert collided with it): nothing to do.
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async function newest(projectId: number, kind: SampleKind): Promise<EventEnvelope | null> {
    const doc = await models.samples.findById(`${projectId}:${kind}`).lean<HookSampleDoc>().exec();
    return doc?.event ?? null;
  }

  return { record, newest };
}

export type SampleStore = ReturnType<typeof createSampleStore>;
