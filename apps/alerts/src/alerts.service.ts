import type { AlertStateData, AlertUpdatedData, EventActor, EventEnvelope } from '@gl/contracts';
import { DOMAIN_EVENT_TYPES, EVENT_TEXT_LIMITS, type AlertCreatedData } from '@gl/contracts';
import {
  ModelError,
  NotFoundError,
  createEvent,
  excerpt,
  type EventOrigin,
  type Outbox,
} from '@gl/service-kit';
import type { MappedAlert } from './alert-payload';
import { FINGERPRINT_TAKEN, type Alert, type AlertStatus, type AlertsStore } from './alerts.store';
import type { Integration } from './integrations.store';

const MAX_ATTEMPTS = 8;

/**
 * The alert as its events carry it for webhooks (alertStateData): the fields Gitlab::DataBuilder::Alert
 * and the alert entity show, already within GitLab's limits (alert-payload.ts) and cut again here so an
 * event stays bounded whatever wrote the alert.
 */
export function alertState(alert: Alert): AlertStateData {
  const cut = (text: string | null) => (text === null ? null : excerpt(text, EVENT_TEXT_LIMITS.alertField));
  return {
    title: excerpt(alert.title, EVENT_TEXT_LIMITS.title),
    severity: alert.severity,
    status: alert.status,
    startedAt: alert.startedAt.toISOString(),
    endedAt: alert.endedAt ? alert.endedAt.toISOString() : null,
    events: alert.events,
    service: cut(alert.service),
    monitoringTool: cut(alert.monitoringTool),
    hosts: alert.hosts.slice(0, EVENT_TEXT_LIMITS.alertField).map((host) => cut(host)!),
    environmentName: cut(alert.environmentName),
  };
}

/**
 * Alert ingestion and status changes (GitLab's AlertProcessing): grouping by fingerprint among unresolved
 * alerts, resolving by `end_time`, and the events that open and close incidents.
 */
export function createAlertsService(store: AlertsStore, outbox: Outbox) {
  /**
   * Processes one mapped payload; null when nothing was stored (a resolving payload without an open
   * alert). Concurrent identical payloads race on the store's one open alert per fingerprint: the loser of
   * an insert finds the winner's alert and counts its event instead.
   */
  async function ingest(
    integration: Integration,
    mapped: MappedAlert,
    payload: Record<string, unknown>,
    origin: EventOrigin,
  ): Promise<Alert | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const { fingerprint, endedAt } = mapped;
      if (fingerprint && !endedAt) {
        // The common repeat: the open alert is found and counted in one write.
        const counted = await store.countOpenEvent(integration.projectId, fingerprint);
        if (counted) return counted;
      } else if (fingerprint && endedAt) {
        const existing = await store.findOpen(integration.projectId, fingerprint);
        if (existing) {
          const resolved = await resolve(existing, endedAt, null, origin);
          if (resolved) return resolved;
          continue;
        }
      }
      if (mapped.endedAt) return null;
      const created = await create(integration, mapped, payload, origin);
      if (created) return created;
    }
    throw new Error('alert ingestion did not settle');
  }

  async function create(
    integration: Integration,
    mapped: MappedAlert,
    payload: Record<string, unknown>,
    origin: EventOrigin,
  ): Promise<Alert | null> {
    const { id, iid } = await store.allocate(integration.projectId);
    const now = new Date();
    const { endedAt: _resolvesAt, ...fields } = mapped;
    const alert: Alert = {
      ...fields,
      _id: id,
      projectId: integration.projectId,
      iid,
      integrationId: integration._id,
      status: 'triggered',
      endedAt: null,
      events: 1,
      payload,
      issueId: null,
      issueIid: null,
      createdAt: now,
      updatedAt: now,
    };
    const event = createEvent(origin, {
      type: DOMAIN_EVENT_TYPES.alerts.alertCreated,
      actor: null,
      projectId: integration.projectId,
      data: {
        alertId: String(id),
        alertIid: iid,
        // Already within GitLab's alert limits (alert-payload.ts); cut here too so the event stays bounded.
        title: excerpt(alert.title, EVENT_TEXT_LIMITS.title),
        description: excerpt(alert.description, EVENT_TEXT_LIMITS.alertDescription),
        severity: alert.severity,
        createIncident: integration.createIncident,
        state: alertState(alert),
      } satisfies AlertCreatedData,
    });
    return published((await store.insert(alert, [event])) ? alert : null);
  }

  /** Resolves an open alert; null when it was no longer open. */
  async function resolve(
    alert: Alert,
    endedAt: Date,
    actor: EventActor,
    origin: EventOrigin,
  ): Promise<Alert | null> {
    const event = resolvedEvent({ ...alert, status: 'resolved', endedAt }, actor, origin);
    return published(await store.resolve(alert, endedAt, [event]));
  }

  /** Wakes the outbox relay when a write that carried events stored something. */
  function published(written: Alert | null): Alert | null {
    if (written) outbox.kick(store.modelName);
    return written;
  }

  /** `resolved` as it is once written: resolved, ended at its time. */
  function resolvedEvent(resolved: Alert, actor: EventActor, origin: EventOrigin): EventEnvelope {
    return createEvent(origin, {
      type: DOMAIN_EVENT_TYPES.alerts.alertResolved,
      actor,
      projectId: resolved.projectId,
      data: { alertId: String(resolved._id), alertIid: resolved.iid, state: alertState(resolved) },
    });
  }

  /** `updated` as it is once written: open again or still, with its new status. */
  function updatedEvent(updated: Alert, actor: EventActor, origin: EventOrigin): EventEnvelope {
    return createEvent(origin, {
      type: DOMAIN_EVENT_TYPES.alerts.alertUpdated,
      actor,
      projectId: updated.projectId,
      data: {
        alertId: String(updated._id),
        alertIid: updated.iid,
        state: alertState(updated),
      } satisfies AlertUpdatedData,
    });
  }

  async function get(projectId: number, iid: number): Promise<Alert> {
    const alert = await store.get(projectId, iid);
    if (!alert) throw new NotFoundError('Alert');
    return alert;
  }

  /**
   * PUT status: resolving sets `ended_at` (and closes the incident); any other status clears it and makes
   * the alert open again, which fails when another unresolved alert has its fingerprint. Each change
   * publishes its event (alert.resolved, else alert.updated) in the same write.
   */
  async function setStatus(
    alert: Alert,
    status: AlertStatus,
    actor: EventActor,
    origin: EventOrigin,
  ): Promise<Alert> {
    if (status === alert.status) return alert;
    if (status === 'resolved') {
      return (await resolve(alert, new Date(), actor, origin)) ?? get(alert.projectId, alert.iid);
    }
    const event = updatedEvent({ ...alert, status, endedAt: null }, actor, origin);
    const updated = await store.setOpenStatus(alert, status, [event]);
    if (updated === FINGERPRINT_TAKEN)
      throw ModelError.fields({ fingerprint: ['Cannot have multiple unresolved alerts'] });
    if (!updated) throw new NotFoundError('Alert');
    published(updated);
    return updated;
  }

  /** `gl.discussions.incident.opened`: remember the incident issue; replays change nothing. */
  async function linkIncident(alertId: number, issueId: number, issueIid: number): Promise<void> {
    await store.linkIncident(alertId, issueId, issueIid);
  }

  const list: AlertsStore['list'] = (...args) => store.list(...args);
  return { list, ingest, get, setStatus, linkIncident };
}
export type AlertsService = ReturnType<typeof createAlertsService>;
