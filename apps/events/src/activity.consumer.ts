import { DURABLES, EVENT_SUBJECTS, EVENT_TYPES, memberEventData, type EventEnvelope } from '@gl/contracts';
import {
  applyIdentityEvent,
  isDuplicateKeyError,
  type Counters,
  type ProjectionRevisions,
  type Subscription,
  eventData,
  forgetMembership,
  markDestroyed,
  projectIdentity,
  recordMembership,
} from '@gl/service-kit';
import { toActivity } from './activity.mapping';
import type { ActivityDoc, EventsModels, IngestedDoc } from './events.models';
import { ProjectionVersion } from './access.cache';
import type { TimelineModels } from './timeline/timeline.models';
import { createTimelineStore, streams, streamsOf } from './timeline/timeline.store';

const ID = EVENT_TYPES.identity;

/**
 * Keeps the copies of users, projects, groups and memberships the read side needs; each write is idempotent
 * and never lets an older redelivered event overwrite a newer one. Resolves true when a projection was written.
 */
function project(models: EventsModels, event: EventEnvelope): Promise<boolean> {
  return applyIdentityEvent(
    {
      user: (data) =>
        projectIdentity(models.users, data.userId, event, {
          username: data.username,
          usernameLower: data.username.toLowerCase(),
          name: data.name,
          state: data.state,
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
          await models.projects.updateOne(
            { _id: data.projectId },
            { $set: { createdCorrelationId: event.correlationId } },
          );
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
async function isCreatorMembership(models: EventsModels, event: EventEnvelope): Promise<boolean> {
  if (event.type !== ID.memberAdded || event.correlationId === null) return false;
  const data = eventData(memberEventData, event);
  if (data.sourceType !== 'project') return false;
  const created = await models.projects
    .findOne({ _id: data.sourceId })
    .select({ createdCorrelationId: 1 })
    .lean();
  return created?.createdCorrelationId === event.correlationId;
}

export interface ActivityRecorder {
  /** Applies one domain event: projections first, then its activity event (at most once per event id). */
  apply(event: EventEnvelope): Promise<void>;
}

export function createActivityRecorder(
  models: EventsModels,
  timelines: TimelineModels,
  counters: Counters,
  projections: ProjectionVersion = new ProjectionVersion(),
  /** Told each identity revision once its projection write is done (requests wait for them). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): ActivityRecorder {
  const timeline = createTimelineStore(timelines);
  /** Authors already written to the user projection by this process (spares one upsert per event). */
  const knownAuthors = new Set<number>();
  const markIngested = async (eventId: string, activityId: number | null): Promise<void> => {
    await models.ingested.updateOne({ _id: eventId }, { $set: { activityId, done: true } }, { upsert: true });
  };
  /** Claims an activity id for the event before anything is written, so a retry reuses it. */
  const claimActivityId = async (eventId: string): Promise<IngestedDoc> => {
    const activityId = await counters.next('activities');
    try {
      await models.ingested.create({ _id: eventId, activityId, done: false });
      return { _id: eventId, activityId, done: false };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return (await models.ingested.findOne({ _id: eventId }).lean<IngestedDoc>())!;
    }
  };
  const appendToStreams = async (activity: ActivityDoc): Promise<void> => {
    for (const stream of streamsOf(activity)) {
      const result = await timeline.append(stream, activity);
      if (result.first && activity.projectId !== null && stream === streams.project(activity.projectId)) {
        // scope=all skips per-event checks for callers who see every project with activity.
        await models.projects.updateOne({ _id: activity.projectId }, { $set: { hasActivity: true } });
        projections.bump();
      }
    }
  };
  return {
    async apply(event) {
      if (await project(models, event)) {
        projections.bump();
        await revisions?.applied(event);
      }
      const draft = toActivity(event);
      if (!draft) return;
      // By _id, which FerretDB answers without scanning. `done: false` is an earlier attempt cut short.
      const ingested = await models.ingested.findOne({ _id: event.id }).lean<IngestedDoc>();
      if (ingested && ingested.done !== false) return;
      if (await isCreatorMembership(models, event)) {
        await markIngested(event.id, null);
        return;
      }
      if (draft.authorUsername !== null && !knownAuthors.has(draft.authorId)) {
        // Authors the identity events never announced (the seeded root) still resolve by id and username.
        await models.users.updateOne(
          { _id: draft.authorId },
          {
            $setOnInsert: {
              username: draft.authorUsername,
              usernameLower: draft.authorUsername.toLowerCase(),
              name: draft.authorName ?? draft.authorUsername,
              state: 'active',
            },
          },
          { upsert: true },
        );
        knownAuthors.add(draft.authorId);
      }
      const activityId = (ingested ?? (await claimActivityId(event.id))).activityId!;
      const activity: ActivityDoc = { _id: activityId, ...draft };
      try {
        await models.activities.create(activity);
      } catch (err) {
        // An earlier delivery of the same event recorded it before it was cut short.
        if (!isDuplicateKeyError(err)) throw err;
      }
      await appendToStreams(activity);
      await markIngested(event.id, activityId);
    },
  };
}

/** `events-activity-log`: every domain event on the bus. */
export function activityLogSubscription(
  recorder: ActivityRecorder,
  durable: string = DURABLES.activityLog,
): Subscription {
  return { durable, filterSubjects: EVENT_SUBJECTS, handle: (event) => recorder.apply(event) };
}
