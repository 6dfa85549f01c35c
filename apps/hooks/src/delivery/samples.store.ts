import { DOMAIN_EVENT_TYPES, type EventEnvelope } from '@gl/contracts';
import type { DeliveryModels, HookProjectDoc, HookSampleDoc } from './delivery.models';
import { eachAfterCollision } from '@gl/service-kit';

const T = DOMAIN_EVENT_TYPES.discussions;

export const SAMPLE_KINDS = ['issue', 'mergeRequest', 'note', 'alert'] as const;
export type SampleKind = (typeof SAMPLE_KINDS)[number];

/** A group's projects are read this many at a time when a group hook's test looks for a record. */
const GROUP_BATCH = 200;

/** The events that make a record its project's newest of its kind: its creation. */
const SAMPLED: Record<string, SampleKind> = {
  [T.issueOpened]: 'issue',
  [T.mergeRequestOpened]: 'mergeRequest',
  [T.noteCreated]: 'note',
  [DOMAIN_EVENT_TYPES.alerts.alertCreated]: 'alert',
};

/** The projects' newest issue, merge request, note and alert events, which hook tests send again. */
export function createSampleStore(models: Pick<DeliveryModels, 'samples' | 'projects'>) {
  /**
   * Keeps, per project and kind, the batch's newest event as its project's newest of its kind, unless a
   * newer one is kept already: one write for the batch.
   */
  async function recordMany(events: EventEnvelope[]): Promise<void> {
    const newestOf = new Map<string, EventEnvelope>();
    for (const event of events) {
      const kind = SAMPLED[event.type];
      if (!kind || event.projectId === null) continue;
      const id = `${event.projectId}:${kind}`;
      const kept = newestOf.get(id);
      if (!kept || kept.occurredAt < event.occurredAt) newestOf.set(id, event);
    }
    if (newestOf.size === 0) return;
    const ops = [...newestOf].map(([id, event]) => ({
      updateOne: {
        filter: { _id: id, occurredAt: { $lt: event.occurredAt } },
        update: { $set: { event, occurredAt: event.occurredAt } },
        upsert: true,
      },
    }));
    // Newer samples are there already (those upserts collided with them): nothing to do for them.
    await eachAfterCollision(
      ops,
      () => models.samples.bulkWrite(ops, { ordered: false }),
      (op) => models.samples.bulkWrite([op]),
    );
  }

  async function newest(projectId: number, kind: SampleKind): Promise<EventEnvelope | null> {
    const doc = await models.samples.findById(`${projectId}:${kind}`).lean<HookSampleDoc>().exec();
    return doc?.event ?? null;
  }

  /**
   * The project a group hook's test takes (TestHooks::GroupService, Group#first_non_empty_project: the
   * first of the group's and its subgroups' projects whose repository has commits). Repositories are not
   * kept here, so a project counts as non-empty when it has the record the trigger sends: the first such
   * project below the group in id order, with its newest record; else the group's first project, without
   * one (ProjectService's "Ensure the project has …" follows); null when the group has no project.
   */
  async function belowGroup(
    groupId: number,
    kind: SampleKind,
  ): Promise<{ projectId: number; event: EventEnvelope | null } | null> {
    let first: number | null = null;
    let after = -1;
    for (;;) {
      const batch = await models.projects
        .find({ ancestorGroupIds: groupId, _id: { $gt: after } }, { _id: 1 })
        .sort({ _id: 1 })
        .limit(GROUP_BATCH)
        .lean<Pick<HookProjectDoc, '_id'>[]>()
        .exec();
      if (batch.length === 0) break;
      first ??= batch[0]!._id;
      const found = await models.samples
        .find({ _id: { $in: batch.map((project) => `${project._id}:${kind}`) } })
        .lean<HookSampleDoc[]>()
        .exec();
      const sample = found
        .map((doc) => ({ projectId: Number(doc._id.split(':')[0]), event: doc.event }))
        .sort((a, b) => a.projectId - b.projectId)[0];
      if (sample) return sample;
      if (batch.length < GROUP_BATCH) break;
      after = batch[batch.length - 1]!._id;
    }
    return first === null ? null : { projectId: first, event: null };
  }

  return { recordMany, newest, belowGroup };
}

export type SampleStore = ReturnType<typeof createSampleStore>;
