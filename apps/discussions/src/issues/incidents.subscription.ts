import { DOMAIN_EVENT_TYPES, DURABLES, alertCreatedData, alertResolvedData } from '@gl/contracts';
import { PoisonMessageError, UNCHANGED, eventData, type Subscription } from '@gl/service-kit';
import type { IncidentsService } from './incidents.service';
import { SERVICE_PRODUCER } from '../common/origin';

/**
 * Alerts ↔ incidents: an alert created with createIncident opens one incident issue (idempotent per alert
 * id, whatever the redeliveries), and its resolution closes that issue.
 */
export function createIncidentsSubscription(
  incidents: Pick<IncidentsService, 'openIncident' | 'closeIncident'>,
): Subscription {
  const { alertCreated, alertResolved } = DOMAIN_EVENT_TYPES.alerts;
  return {
    durable: DURABLES.discussionsIncidents,
    filterSubjects: [alertCreated, alertResolved],
    async handle(event) {
      const origin = { producer: SERVICE_PRODUCER, correlationId: event.correlationId };
      if (event.projectId === null) throw new PoisonMessageError(`${event.type} without projectId`);
      if (event.type === alertCreated) {
        const data = eventData(alertCreatedData, event);
        // Most alerts open no incident: nothing changed here, no resource version to bump.
        if (!data.createIncident) return UNCHANGED;
        await incidents.openIncident(origin, event.projectId, event.actor, data);
      } else if (event.type === alertResolved) {
        const data = eventData(alertResolvedData, event);
        await incidents.closeIncident(origin, data.alertId, event.actor);
      }
    },
  };
}
