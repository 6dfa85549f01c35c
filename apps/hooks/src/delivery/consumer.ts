import { DURABLES, EVENT_TYPES, projectEventData, type EventEnvelope } from '@gl/contracts';
import {
  eventData,
  PoisonMessageError,
  type BatchOutcome,
  type EventMeta,
  type Subscription,
} from '@gl/service-kit';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { HookDoc } from '../hooks.models';
import type { HookedParents, HookedParentSets } from '../hooked-parents';
import { buildPayload, DELIVERED_EVENT_TYPES, scopeOf, type HookScope } from '../payloads/build';
import { batchReads, type DiscussionsSource } from '../payloads/discussions-source';
import { payloadProject } from '../payloads/project';
import { mapBounded } from './bounded';
import type { DeliveryModels, HookProjectDoc } from './delivery.models';
import { UNBUILT_PAYLOAD, type DeliveryStore, type QueuedDelivery } from './delivery.store';
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
  /**
   * Called once the events of a batch that queued deliveries were acknowledged, so the sender need not wait
   * for its next pass: not before, as the ack floor the sender waits for moves only then (ack-floor.ts).
   */
  onQueued?: () => void;
  /** Where a given-up event is reported. */
  logger?: Pick<Logger, 'error'>;
}

const PROJECT_EVENTS: string[] = [EVENT_TYPES.identity.projectCreated, EVENT_TYPES.identity.projectUpdated];

/**
 * Most events a batch takes: a backlog is queued this many at a time (one read of each kind and one insert
 * per batch), while a trickle is written as it comes (no linger: a batch is what arrived meanwhile).
 */
export const DELIVERY_BATCH_SIZE = 200;
/** Payloads built at once: each reads discussions over HTTP (one or two requests). */
const PAYLOAD_CONCURRENCY = 16;

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
    ...(data.features && { features: data.features }),
    occurredAt: event.occurredAt,
  };
  try {
    // A deleted project's mark (parent-removal.ts) is never overwritten: the upsert collides with it.
    await models.projects.updateOne(
      { _id: data.projectId, occurredAt: { $lt: event.occurredAt }, destroyed: { $ne: true } },
      // An event without feature levels (an older build's) means every feature enabled: none signed then.
      doc.features ? { $set: doc } : { $set: doc, $unset: { features: 1 } },
      { upsert: true },
    );
  } catch (err) {
    // A newer copy is there already (the upsert collided with it): nothing to do.
    if ((err as { code?: number }).code !== 11000) throw err;
  }
}

const HOOK_ORDER = { parentKind: 1, parentId: 1, _id: 1 } as const;

function byParent(hooks: HookDoc[]): Map<number, HookDoc[]> {
  const map = new Map<number, HookDoc[]>();
  for (const hook of hooks) map.set(hook.parentId, [...(map.get(hook.parentId) ?? []), hook]);
  return map;
}

/**
 * The hooks events of each project reach: the project's own hooks and those of every group above it
 * (GitLab's `project.execute_hooks` runs `project.hooks` and `group_hooks`), read for a whole batch in
 * two finds, at once when every project's groups are known from its copy.
 */
async function hooksReaching(
  hooks: Model<HookDoc>,
  projectIds: number[],
  copies: Map<number, HookProjectDoc>,
): Promise<Map<number, HookDoc[]>> {
  const readOwn = () =>
    hooks
      .find({ parentKind: 'project', parentId: { $in: projectIds } })
      .sort(HOOK_ORDER)
      .lean<HookDoc[]>()
      .exec();
  const readInherited = (groups: number[]) =>
    groups.length === 0
      ? Promise.resolve([])
      : hooks
          .find({ parentKind: 'group', parentId: { $in: groups } })
          .sort(HOOK_ORDER)
          .lean<HookDoc[]>()
          .exec();
  const groupsFrom = (ownOf: Map<number, HookDoc[]>) =>
    new Map(
      projectIds.map((id) => [
        id,
        // Without a copy yet, its own hooks know its groups.
        copies.get(id)?.ancestorGroupIds ?? ownOf.get(id)?.[0]?.ancestorGroupIds ?? [],
      ]),
    );
  const allGroups = (groupsOf: Map<number, number[]>) => [...new Set([...groupsOf.values()].flat())];
  let own: HookDoc[];
  let inherited: HookDoc[];
  let groupsOf: Map<number, number[]>;
  if (projectIds.every((id) => copies.has(id))) {
    groupsOf = groupsFrom(new Map());
    [own, inherited] = await Promise.all([readOwn(), readInherited(allGroups(groupsOf))]);
  } else {
    own = await readOwn();
    groupsOf = groupsFrom(byParent(own));
    inherited = await readInherited(allGroups(groupsOf));
  }
  const ownOf = byParent(own);
  const groupHooksOf = byParent(inherited);
  return new Map(
    projectIds.map((id) => [
      id,
      [
        ...(ownOf.get(id) ?? []),
        // In group id order, as one find of the groups' hooks sorted by parent returned them.
        ...[...groupsOf.get(id)!].sort((a, b) => a - b).flatMap((group) => groupHooksOf.get(group) ?? []),
      ],
    ]),
  );
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

/** A delivered event of a batch: its scope, its project, its place in the stream. */
interface Delivered {
  event: EventEnvelope & { projectId: number };
  scope: HookScope;
  sequence: number;
  /** How many times the bus has handed this event over, this time included. */
  attempts: number;
}

/**
 * Tries before an event whose payload cannot be read (discussions failing for its note or issue) is given
 * up: with the bus's back-off (1 s doubling, at most 60 s) about two minutes. Each hook it reaches then
 * logs a failed delivery with the reason instead of waiting for it: the sender holds every hook at the
 * durable's ack floor, which a message retried forever would never let pass.
 */
export const PAYLOAD_ATTEMPTS = 8;

/** A payload, or why it could not be built once the event has had its tries. */
type Built = { payload: Record<string, unknown> | null } | { givenUp: string };

/**
 * Queues the deliveries of a run of events (no project event among them): one read of the hooked parents,
 * one of the projects' copies, two of their hooks, one bulk write of samples, the payloads built
 * `PAYLOAD_CONCURRENCY` at a time (equal reads shared), and one insert. Each delivery carries its event's
 * stream sequence, the order its hook gets them in.
 */
async function queueRun(deps: DeliveryConsumerDeps, run: Delivered[]): Promise<number> {
  if (run.length === 0) return 0;
  const hooked = (await deps.hookedParents?.current()) ?? null;
  let candidates = hooked ? run.filter((d) => mayHaveHooks(hooked, d.event.projectId, null)) : run;
  if (candidates.length === 0) return 0;
  const projectIds = (list: Delivered[]) => [...new Set(list.map((d) => d.event.projectId))];
  const found = await deps.models.projects
    .find({ _id: { $in: projectIds(candidates) } })
    .lean<HookProjectDoc[]>()
    .exec();
  // A deleted project's events queue nothing and keep no sample: their records are gone with it (the
  // payload would find them deleted), and its hooks and samples went with the project (parent-removal.ts).
  const destroyed = new Set(found.filter((copy) => copy.destroyed).map((copy) => copy._id));
  candidates = candidates.filter((d) => !destroyed.has(d.event.projectId));
  if (candidates.length === 0) return 0;
  const copies = new Map(found.filter((copy) => !copy.destroyed).map((copy) => [copy._id, copy]));
  if (hooked) {
    const copyOf = (d: Delivered) => copies.get(d.event.projectId) ?? null;
    candidates = candidates.filter((d) => mayHaveHooks(hooked, d.event.projectId, copyOf(d)));
    if (candidates.length === 0) return 0;
  }
  const reaching = await hooksReaching(deps.hooks, projectIds(candidates), copies);
  // A project no hook reaches writes nothing (the hooked parents above usually spare its reads too):
  // its samples (what a hook test sends) are kept from the time it has a hook, when a test can be asked.
  const reached = candidates.filter((d) => reaching.get(d.event.projectId)!.length > 0);
  // Kept beside the payloads' reads, not before them: what a hook test sends is not on a delivery's way.
  const samplesKept = deps.samples.recordMany(reached.map((d) => d.event));
  const work = reached
    .map((d) => ({ ...d, targets: hooksFor(reaching.get(d.event.projectId)!, d.event, d.scope.flag) }))
    .filter((w) => w.targets.length > 0);
  const source = batchReads(deps.source);
  const building = mapBounded(
    work,
    PAYLOAD_CONCURRENCY,
    async ({ event, scope, attempts }): Promise<Built> => {
      const input = {
        event,
        project: payloadProject(event.projectId, copies.get(event.projectId) ?? null),
        externalUrl: deps.externalUrl,
        source,
      };
      try {
        return { payload: await buildPayload(input, scope) };
      } catch (err) {
        // The batch fails and comes again (with back-off) until the event has had its tries.
        if (attempts < PAYLOAD_ATTEMPTS) throw err;
        const reason = `payload could not be built: ${err instanceof Error ? err.message : String(err)}`;
        deps.logger?.error(
          { err, eventId: event.id, attempts },
          'hooks: event given up, its deliveries logged as failed',
        );
        return { givenUp: reason.slice(0, 1_000) };
      }
    },
  );
  const [built] = await Promise.all([building, samplesKept]);
  const items: QueuedDelivery[] = work.flatMap(({ event, scope, sequence, targets }, i) => {
    const outcome = built[i]!;
    if ('payload' in outcome && !outcome.payload) return []; // deleted meanwhile: GitLab would not have run hooks for it either
    const fields =
      'givenUp' in outcome
        ? { payload: UNBUILT_PAYLOAD, givenUp: outcome.givenUp }
        : { payload: JSON.stringify(outcome.payload) };
    return targets.map((hook) => ({
      hook,
      eventId: event.id,
      sequence,
      trigger: scope.trigger,
      eventName: scope.eventName,
      ...fields,
    }));
  });
  return deps.store.queue(items, new Date(), deps.retryForMs);
}

/**
 * The `hooks-delivery` durable: each issue, merge request or note event becomes one queued delivery per hook
 * it reaches, its payload read once, now; a batch of events at a time. Idempotent by `{hookId, eventId}`.
 * Project events keep the projects' copies; the events after one in a batch see its copy.
 */
export function deliveryConsumer(deps: DeliveryConsumerDeps): Subscription {
  /** Deliveries were queued since the last acknowledgement. */
  let unacknowledged = false;

  async function handleBatch(events: EventEnvelope[], meta: readonly (EventMeta | undefined)[]) {
    const poisoned = new Map<number, PoisonMessageError>();
    let queued = 0;
    let run: Delivered[] = [];
    for (const [i, event] of events.entries()) {
      const project = PROJECT_EVENTS.includes(event.type);
      // The events before a project event are queued with the copy they found.
      if (project) {
        queued += await queueRun(deps, run);
        run = [];
      }
      try {
        if (project) {
          await copyProject(deps.models, event);
          continue;
        }
        const scope = scopeOf(event);
        if (!scope || event.projectId === null) continue;
        const sequence = meta[i]?.streamSequence ?? 0;
        const attempts = meta[i]?.deliveryCount ?? 1;
        run.push({ event: { ...event, projectId: event.projectId }, scope, sequence, attempts });
      } catch (err) {
        // An event whose data does not parse is terminated alone; the others of the batch go on. (One that
        // fails later, while its payload is built, fails the batch, which is then written event by event.)
        if (!(err instanceof PoisonMessageError)) throw err;
        poisoned.set(i, err);
      }
    }
    queued += await queueRun(deps, run);
    if (queued > 0) unacknowledged = true;
    return poisoned.size > 0 ? ({ poisoned } satisfies BatchOutcome) : undefined;
  }

  return {
    durable: DURABLES.hooksDelivery,
    filterSubjects: [...DELIVERED_EVENT_TYPES, ...PROJECT_EVENTS],
    batchSize: DELIVERY_BATCH_SIZE,
    handleBatch,
    acknowledged: () => {
      if (!unacknowledged) return;
      unacknowledged = false;
      deps.onQueued?.();
    },
    // One event as a batch of one (tests hand events over this way); a poisoned one throws as before.
    handle: async (event, meta) => {
      const outcome = await handleBatch([event], [meta]);
      const poison = outcome?.poisoned.get(0);
      if (poison) throw poison;
    },
  };
}
