import type { Model } from 'mongoose';
import { DURABLES, EVENT_SUBJECTS, EVENT_TYPES, memberEventData, type EventEnvelope } from '@gl/contracts';
import {
  PoisonMessageError,
  ProjectionVersion,
  applyIdentityEvent,
  type BatchOutcome,
  type ProjectionRevisions,
  type Subscription,
  eventData,
  forgetMembership,
  markDestroyed,
  projectIdentity,
  recordMembership,
  userCopyHandlers,
} from '@gl/service-kit';
import { createActivityLogStore } from './activity-log.store';
import { streamsOf } from './activity-scopes';
import { RENEW_MS, type ActivitySequence } from './activity-sequence';
import { recordAuthorRemoval } from './author-removal.job';
import { toActivity, type ActivityDraft } from './activity.mapping';
import type { ActivityDoc, EventsModels } from './events.models';
import { createIngestedStore } from './ingested.store';
import { createProjectsStore, type ProjectsStore } from './projects.store';
import { createUsersStore, type NamedAuthor } from './users.store';

const ID = EVENT_TYPES.identity;

/**
 * Keeps the copies of users, projects, groups and memberships the read side needs; each write is idempotent
 * and never lets an older redelivered event overwrite a newer one. Resolves true when a projection was written.
 */
function project(
  models: EventsModels,
  projects: ProjectsStore,
  event: EventEnvelope,
  authorRemovalRecorded: () => void,
): Promise<boolean> {
  return applyIdentityEvent(
    {
      // The kit's user copy: the address for avatar_url, and the Ghost User for a deleted user still named.
      ...userCopyHandlers(models.users as unknown as Model<never>, {
        fields: (data) => ({ usernameLower: data.username.toLowerCase() }),
        // GitLab deletes a deleted user's events (author-removal.job.ts): the order is recorded before the
        // event is acknowledged, and carried out in the background.
        destroyed: async (data) => {
          await recordAuthorRemoval(models.authorRemovals, data.userId);
          authorRemovalRecorded();
        },
      }),
      project: async (data) => {
        const set = {
          fullPath: data.fullPath,
          visibility: data.visibility,
          ancestorGroupIds: data.ancestorGroupIds,
        };
        const written = await projectIdentity(models.projects, data.projectId, event, set, {
          unlessDestroyed: true,
        });
        // The creating request stays known even when a newer update was applied first.
        if (event.type === ID.projectCreated)
          await projects.recordCreatingRequest(data.projectId, event.correlationId);
        return written;
      },
      projectDestroyed: (data) => markDestroyed(models.projects, data.projectId),
      group: (data) =>
        projectIdentity(
          models.groups,
          data.groupId,
          event,
          { visibility: data.visibility, ancestorGroupIds: data.ancestorGroupIds },
          { unlessDestroyed: true },
        ),
      groupDestroyed: (data) => markDestroyed(models.groups, data.groupId),
      member: (data) => recordMembership(models.members, data, event),
      memberGone: (data) => forgetMembership(models.members, data),
    },
    event,
  );
}

/** The creator's own owner membership, written by the request that created the project, is not `joined`. */
async function isCreatorMembership(projects: ProjectsStore, event: EventEnvelope): Promise<boolean> {
  if (event.type !== ID.memberAdded || event.correlationId === null) return false;
  const data = eventData(memberEventData, event);
  if (data.sourceType !== 'project') return false;
  return (await projects.creatingRequest(data.sourceId)) === event.correlationId;
}

/** A mapped event of a batch: its activity event to record, or none (the creator's own membership). */
interface Mapped {
  event: EventEnvelope;
  draft: ActivityDraft | null;
}

export interface ActivityRecorder {
  /** Applies one domain event: projections first, then its activity event (at most once per event id). */
  apply(event: EventEnvelope): Promise<void>;
  /**
   * Applies a batch of events: each one's projections in order, then their activity events with a few bulk
   * writes. Events whose payload breaks its contract are reported as poisoned; the others are applied.
   */
  applyBatch(events: EventEnvelope[]): Promise<BatchOutcome>;
}

/** Times a batch's events are written again under new ids after its lease was taken for dead. */
const LEASE_RETRIES = 3;

export function createActivityRecorder(
  models: EventsModels,
  sequence: ActivitySequence,
  projections: ProjectionVersion = new ProjectionVersion(),
  /** Told each identity revision once its projection write is done (requests wait for them). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
  /** Told the scopes (activity-scopes.ts) a batch recorded events in, once they are written (streams wake). */
  onRecorded: (streams: string[]) => void = () => undefined,
  /** Told when a deleted user's events are to be removed (the removal job wakes). */
  onAuthorRemoval: () => void = () => undefined,
): ActivityRecorder {
  const activityLog = createActivityLogStore(models.activities);
  const ingested = createIngestedStore(models.ingested);
  const projects = createProjectsStore(models.projects);
  const users = createUsersStore(models.users);
  /** Authors already written to the user projection by this process (spares one upsert per event). */
  const knownAuthors = new Set<number>();

  /** Projections, then the event's activity meaning; throws PoisonMessageError for a broken payload. */
  async function prepare(event: EventEnvelope): Promise<Mapped | null> {
    if (await project(models, projects, event, onAuthorRemoval)) {
      projections.bump();
      await revisions?.applied(event);
    }
    const draft = toActivity(event);
    if (!draft) return null;
    return { event, draft: (await isCreatorMembership(projects, event)) ? null : draft };
  }

  async function addAuthors(drafts: ActivityDraft[]): Promise<void> {
    const unknown = new Map<number, NamedAuthor>();
    for (const { authorId: id, authorUsername: username, authorName: name } of drafts) {
      if (username !== null && !knownAuthors.has(id)) unknown.set(id, { id, username, name });
    }
    await users.addUnknownAuthors([...unknown.values()]);
    for (const id of unknown.keys()) knownAuthors.add(id);
  }

  /**
   * Writes the activity events under ids taken with an open lease (activity-sequence.ts), renewed while the
   * write lasts and closed after it, so live readers never pass an id still being written. An event an
   * earlier delivery wrote keeps its id. If the lease was taken for dead meanwhile, readers may have gone
   * past these ids: the events this call wrote are deleted and written again under new ones.
   */
  async function write(drafts: ActivityDraft[]): Promise<ActivityDoc[]> {
    if (drafts.length === 0) return [];
    for (let attempt = 1; ; attempt++) {
      const lease = await sequence.open(drafts.length);
      const activities = drafts.map((draft, i): ActivityDoc => ({ _id: lease.first + i, ...draft }));
      const renew = setInterval(() => void sequence.renew(lease.token).catch(() => undefined), RENEW_MS);
      renew.unref();
      let written: Awaited<ReturnType<typeof activityLog.record>>;
      let closed: boolean;
      try {
        written = await activityLog.record(activities);
      } finally {
        clearInterval(renew);
        closed = await sequence.close(lease.token);
      }
      if (closed) return activities.map((a) => ({ ...a, _id: written.ids.get(a.sourceEventId)! }));
      await activityLog.removeIds(written.inserted);
      if (attempt >= LEASE_RETRIES) throw new Error('activity ids: the lease expired on every attempt');
    }
  }

  /**
   * Records the activity events of a batch, once per event id: written to the log (idempotently, by event
   * id), then marked done in `ingested`. A delivery cut short before the mark is recorded again, and finds
   * what it wrote.
   */
  async function record(batch: Mapped[]): Promise<void> {
    if (batch.length === 0) return;
    // The same event twice in a batch (published twice) is recorded once.
    const unique = [...new Map(batch.map((item) => [item.event.id, item])).values()];
    const known = await ingested.find(unique.map((item) => item.event.id));
    // A record with `done: false` is an earlier delivery cut short (older builds claimed ids first).
    const pending = unique.filter((item) => {
      const record = known.get(item.event.id);
      return record === undefined || record.done === false;
    });
    // An event of a deleted user (delivered late, or again) is not recorded: their events are removed.
    const deleted = await users.destroyedAmong(
      pending.flatMap((item) => (item.draft ? [item.draft.authorId] : [])),
    );
    const skipped = pending.filter((item) => item.draft === null || deleted.has(item.draft.authorId));
    const drafts = pending.flatMap((item) =>
      item.draft && !deleted.has(item.draft.authorId) ? [item.draft] : [],
    );
    await addAuthors(drafts);
    const recorded = await write(drafts);
    await ingested.markDone([
      ...skipped.map((item) => ({ eventId: item.event.id, activityId: null })),
      ...recorded.map((activity) => ({ eventId: activity.sourceEventId, activityId: activity._id })),
    ]);
    if (recorded.length > 0) onRecorded([...new Set(recorded.flatMap(streamsOf))]);
  }

  return {
    async apply(event) {
      const mapped = await prepare(event);
      if (mapped) await record([mapped]);
    },

    async applyBatch(events) {
      const projectedBefore = projections.value;
      const poisoned = new Map<number, PoisonMessageError>();
      const mapped: Mapped[] = [];
      for (const [index, event] of events.entries()) {
        try {
          const item = await prepare(event);
          if (item) mapped.push(item);
        } catch (err) {
          if (!(err instanceof PoisonMessageError)) throw err;
          poisoned.set(index, err);
        }
      }
      await record(mapped);
      // A batch of events that are no activity (alerts, hook-only changes) and touched no projection
      // changed no feed: the service's resource version stays, and so do the feeds' 304s.
      const unchanged = mapped.length === 0 && projections.value === projectedBefore;
      return { poisoned, unchanged };
    },
  };
}

/**
 * How long a batch of activity waits for more events when it is not full. Recording a batch costs about
 * eight database commands whatever its size (ingested records, the id lease, the log, the authors); in a
 * GitLab-like mix the writes come a few dozen a second, so each came alone and paid all eight. An event
 * reaches the feeds this much later at most.
 */
export const ACTIVITY_LINGER_MS = 200;

/** `events-activity-log`: every domain event on the bus, taken in batches. */
export function activityLogSubscription(
  recorder: ActivityRecorder,
  durable: string = DURABLES.activityLog,
): Subscription {
  return {
    durable,
    filterSubjects: EVENT_SUBJECTS,
    handle: (event) => recorder.apply(event),
    handleBatch: (events) => recorder.applyBatch(events),
    lingerMs: ACTIVITY_LINGER_MS,
  };
}
