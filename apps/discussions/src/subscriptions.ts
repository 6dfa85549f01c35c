import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  alertCreatedData,
  alertResolvedData,
  targetEventData,
} from '@gl/contracts';
import { PoisonMessageError, eventData, type Subscription } from '@gl/service-kit';
import type { NoteablesService } from './noteables.service';
import { SERVICE_PRODUCER } from './discussions.origin';

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
        const data = eventData(alertCreatedData, event);
        if (!data.createIncident) return;
        await noteables.openIncident(origin, event.projectId, event.actor, data);
      } else if (event.type === alertResolved) {
        const data = eventData(alertResolvedData, event);
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
      const data = eventData(targetEventData, event);
      await noteables.recordMilestone(data.targetId, data.targetIid, data.targetTitle);
    },
  };
}
