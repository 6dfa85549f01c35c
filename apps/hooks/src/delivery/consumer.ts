import { DURABLES, EVENT_TYPES, projectEventData, type EventEnvelope } from '@gl/contracts';
import { eventData, type Subscription } from '@gl/service-kit';
import type { Model } from 'mongoose';
import type { HookDoc } from '../hooks.models';
import type { HookedParents, HookedParentSets } from '../hooked-parents';
import { buildPayload, DELIVERED_EVENT_TYPES, scopeOf } from '../payloads/build';
import type { DiscussionsSource } from '../payloads/discussions-source';
import { payloadProject } from '../payloads/project';
import type { DeliveryModels, HookProjectDoc } from './delivery.models';
import type { DeliveryStore } from './delivery.store';
import type { SampleStore } from './samples.store';

export interface DeliveryConsumerDeps {
  hooks: Model<HookDoc>;
  /** Which parents have hooks: an event no hook can reach is dropped without reading the hooks. */
  hookedParents?: Pick<HookedParents, 'current'>;
  models: DeliveryModels;
  store: DeliveryStore;
  /** Keeps each project's newest issue, merge request and note event for hook tests. */
  samples: SampleStore;
  source: DiscussionsSource;
  externalUrl: string;
  /** How long a delivery is retried before it is given up (at least a day). */
  retryForMs: number;
  /** Called after deliveries were queued, so the sender need not wait for its next pass. */
  onQueued?: () => void;
}

const PROJECT_EVENTS: string[] = [EVENT_TYPES.identity.projectCreated, EVENT_TYPES.identity.projectUpdated];

/** Keeps the project's copy as its newest event says. */
async function copyProject(models: DeliveryModels, event: EventEnvelope): Promise<void> {
  const data = eventData(projectEventData, event);
  const doc: HookProjectDoc = {
    _id: data.projectId,
    name: data.name,
    path: data.path,
    fullPath: data.fullPath,
    namespaceId: data.namespaceId,
    ancestorGroupIds: data.ancestorGroupIds,
    visibility: data.visibility,
    occurredAt: event.occurredAt,
  };
  try {
    await models.projects.updateOne(
      { _id: data.projectId, occurredAt: { $lt: event.occurredAt } },
      { $set: doc },
      { upsert: true },
    );
  } catch (err) {
    // A newer copy is there already (the upsert collided with it): nothing to do.
    if ((err as { code?: number }).code !== 11000) throw err;
  }
}

/**
 * The hooks an event of project `projectId` reaches with `flag` on: the project's own hooks and those of
 * every group above it (GitLab's `project.execute_hooks` runs `project.hooks` and `group_hooks`), among
 * those that existed when it happened (a new durable reads the stream from its start).
 */
async function hooksReaching(
  deps: DeliveryConsumerDeps,
  event: EventEnvelope,
  copy: HookProjectDoc | null,
): Promise<HookDoc[]> {
  const projectId = event.projectId!;
  const own = await deps.hooks
    .find({ parentKind: 'project', parentId: projectId })
    .sort({ parentKind: 1, parentId: 1, _id: 1 })
    .lean<HookDoc[]>();
  const groups = copy?.ancestorGroupIds ?? own[0]?.ancestorGroupIds ?? [];
  const inherited =
    groups.length === 0
      ? []
      : await deps.hooks
          .find({ parentKind: 'group', parentId: { $in: groups } })
          .sort({ parentKind: 1, parentId: 1, _id: 1 })
          .lean<HookDoc[]>();
  return [...own, ...inherited];
}

/**
 * Whether the project or a group above it has hooks; with no copy of the project yet, whether any group
 * has (its groups are then unknown here).
 */
function mayHaveHooks(hooked: HookedParentSets, projectId: number, copy: HookProjectDoc | null): boolean {
  if (hooked.projects.has(projectId)) return true;
  if (copy === null) return hooked.groups.size > 0;
  return copy.ancestorGroupIds.some((groupId) => hooked.groups.has(groupId));
}

/** The hooks that take this event: its flag on, and created before it happened. */
function hooksFor(hooks: HookDoc[], event: EventEnvelope, flag: string): HookDoc[] {
  const happened = Date.parse(event.occurredAt);
  return hooks.filter(
    (hook) => hook.events?.[flag] === true && !(new Date(hook.createdAt).getTime() > happened),
  );
}

/**
 * The `hooks-delivery` durable: an issue, merge request or note event becomes one queued delivery per hook
 * it reaches, its payload read once, now. Idempotent by `{hookId, eventId}`.
 */
export function deliveryConsumer(deps: DeliveryConsumerDeps): Subscription {
  return {
    durable: DURABLES.hooksDelivery,
    filterSubjects: [...DELIVERED_EVENT_TYPES, ...PROJECT_EVENTS],
    handle: async (event) => {
      if (PROJECT_EVENTS.includes(event.type)) {
        await copyProject(deps.models, event);
        return;
      }
      const scope = scopeOf(event);
      if (!scope || event.projectId === null) return;
      const hooked = (await deps.hookedParents?.current()) ?? null;
      if (hooked && !mayHaveHooks(hooked, event.projectId, null)) return;
      const copy = await deps.models.projects.findById(event.projectId).lean<HookProjectDoc>().exec();
      if (hooked && !mayHaveHooks(hooked, event.projectId, copy)) return;
      const reaching = await hooksReaching(deps, event, copy);
      // A project no hook reaches writes nothing (the hooked parents above usually spare its reads too):
      // its samples (what a hook test sends) are kept from the time it has a hook, when a test can be asked.
      if (reaching.length === 0) return;
      await deps.samples.record(event);
      const targets = hooksFor(reaching, event, scope.flag);
      if (targets.length === 0) return;
      const project = payloadProject(event.projectId, copy);
      const payload = await buildPayload(
        { event, project, externalUrl: deps.externalUrl, source: deps.source },
        scope,
      );
      if (!payload) return; // deleted meanwhile: GitLab would not have run hooks for it either
      const json = JSON.stringify(payload);
      const queued = await deps.store.queue(
        targets.map((hook) => ({
          hook,
          eventId: event.id,
          trigger: scope.trigger,
          eventName: scope.eventName,
          payload: json,
        })),
        new Date(),
        deps.retryForMs,
      );
      if (queued > 0) deps.onQueued?.();
    },
  };
}
