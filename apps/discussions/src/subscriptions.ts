import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  alertCreatedData,
  alertResolvedData,
  EVENT_TYPES,
  targetEventData,
  userEventData,
  type EventEnvelope,
} from '@gl/contracts';
import { PoisonMessageError, type Subscription } from '@gl/service-kit';
import type { z } from 'zod';
import type { NoteablesService } from './noteables.service';
import { SERVICE_PRODUCER } from './discussions.origin';

function parse<S extends z.ZodType>(schema: S, event: EventEnvelope): z.infer<S> {
  const result = schema.safeParse(event.data);
  if (!result.success) throw new PoisonMessageError(`invalid ${event.type} data`);
  return result.data;
}

/**
 * Alerts ↔ incidents: an alert created with createIncident opens one incident issue (idempotent per alert
 * id, whatever the redeliveries), and its resolution closes that issue.
 */
export function createIncidentsSubscription(noteables: NoteablesService): Subscription {
  const { alertCreated, alertResolved } = DOMAIN_EVENT_TYPES.alerts;
  return {
    durable: DURABLES.discussionsIncidents,
    filterSubjects: [alertCreated, alertResolved],
    async handle(event) {
      const origin = { producer: SERVICE_PRODUCER, correlationId: event.correlationId };
      if (event.projectId === null) throw new PoisonMessageError(`${event.type} without projectId`);
      if (event.type === alertCreated) {
        const data = parse(alertCreatedData, event);
        if (!data.createIncident) return;
        await noteables.openIncident(origin, event.projectId, event.actor, data);
      } else if (event.type === alertResolved) {
        const data = parse(alertResolvedData, event);
        await noteables.closeIncident(origin, data.alertId, event.actor);
      }
    },
  };
}

/** Group milestone titles from the boards service, for milestone system notes. */
export function createMilestonesSubscription(noteables: NoteablesService): Subscription {
  const { milestoneOpened } = DOMAIN_EVENT_TYPES.boards;
  return {
    durable: DURABLES.discussionsMilestones,
    filterSubjects: [milestoneOpened],
    async handle(event) {
      const data = parse(targetEventData, event);
      await noteables.recordMilestone(data.targetId, data.targetIid, data.targetTitle);
    },
  };
}

/** Usernames from the identity catalogue, for "assigned to @user" system notes. */
export function createUsersSubscription(noteables: NoteablesService): Subscription {
  const { userCreated, userUpdated } = EVENT_TYPES.identity;
  return {
    durable: DURABLES.discussionsUsers,
    filterSubjects: [userCreated, userUpdated],
    async handle(event) {
      await noteables.recordUser(parse(userEventData, event), event.occurredAt);
    },
  };
}
