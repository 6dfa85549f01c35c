import { DOMAIN_EVENT_TYPES, DURABLES, incidentOpenedData } from '@gl/contracts';
import { PoisonMessageError, type Subscription } from '@gl/service-kit';
import type { AlertsService } from './alerts.service';

/** Records the incident issue discussions opened for an alert; replays set the same values again. */
export function createIncidentsSubscription(alerts: AlertsService): Subscription {
  return {
    durable: DURABLES.alertsIncidents,
    filterSubjects: [DOMAIN_EVENT_TYPES.discussions.incidentOpened],
    async handle(event) {
      const parsed = incidentOpenedData.safeParse(event.data);
      const alertId = parsed.success ? Number(parsed.data.alertId) : NaN;
      if (!parsed.success || !Number.isInteger(alertId))
        throw new PoisonMessageError('invalid incident.opened data');
      await alerts.linkIncident(alertId, parsed.data.issueId, parsed.data.issueIid);
    },
  };
}
