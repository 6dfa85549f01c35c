import { DOMAIN_EVENT_TYPES, DURABLES, incidentOpenedData } from '@gl/contracts';
import { PoisonMessageError, eventData, type Subscription } from '@gl/service-kit';
import type { AlertsService } from './alerts.service';

/** Records the incident issue discussions opened for an alert; replays set the same values again. */
export function createIncidentsSubscription(alerts: AlertsService): Subscription {
  return {
    durable: DURABLES.alertsIncidents,
    filterSubjects: [DOMAIN_EVENT_TYPES.discussions.incidentOpened],
    async handle(event) {
      const data = eventData(incidentOpenedData, event);
      const alertId = Number(data.alertId);
      if (!Number.isInteger(alertId))
        throw new PoisonMessageError(`invalid incident.opened data: alertId ${JSON.stringify(data.alertId)}`);
      await alerts.linkIncident(alertId, data.issueId, data.issueIid);
    },
  };
}
