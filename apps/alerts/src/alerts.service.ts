import type { EventActor, EventEnvelope } from '@gl/contracts';
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
 * Alert ingestion and status changes (GitLab's AlertProcessing): grouping by fingerprint among unresolved
 * alerts, resolving by `end_time`, and the events that open and close incidents.
 */
export class AlertsService {
  constructor(
    private readonly store: AlertsStore,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Processes one mapped payload; null when nothing was stored (a resolving payload without an open
   * alert). Concurrent identical payloads race on the store's one open alert per fingerprint: the loser of
   * an insert finds the winner's alert and counts its event instead.
   */
  async ingest(
    integration: Integration,
    mapped: MappedAlert,
    payload: Record<string, unknown>,
    origin: EventOrigin,
  ): Promise<Alert | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (mapped.fingerprint) {
        const existing = await this.store.findOpen(integration.projectId, mapped.fingerprint);
        if (existing) {
          const updated = mapped.endedAt
            ? await this.resolve(existing, mapped.endedAt, null, origin)
            : await this.store.countEvent(existing);
          if (updated) return updated;
          continue;
        }
      }
      if (mapped.endedAt) return null;
      const created = await this.create(integration, mapped, payload, origin);
      if (created) return created;
    }
    throw new Error('alert ingestion did not settle');
  }

  private async create(
    integration: Integration,
    mapped: MappedAlert,
    payload: Record<string, unknown>,
    origin: EventOrigin,
  ): Promise<Alert | null> {
    const { id, iid } = await this.store.allocate(integration.projectId);
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
      } satisfies AlertCreatedData,
    });
    return this.published((await this.store.insert(alert, [event])) ? alert : null);
  }

  /** Resolves an open alert; null when it was no longer open. */
  private async resolve(
    alert: Alert,
    endedAt: Date,
    actor: EventActor,
    origin: EventOrigin,
  ): Promise<Alert | null> {
    return this.published(
      await this.store.resolve(alert, endedAt, [this.resolvedEvent(alert, actor, origin)]),
    );
  }

  /** Wakes the outbox relay when a write that carried events stored something. */
  private published(written: Alert | null): Alert | null {
    if (written) this.outbox.kick();
    return written;
  }

  private resolvedEvent(alert: Alert, actor: EventActor, origin: EventOrigin): EventEnvelope {
    return createEvent(origin, {
      type: DOMAIN_EVENT_TYPES.alerts.alertResolved,
      actor,
      projectId: alert.projectId,
      data: { alertId: String(alert._id), alertIid: alert.iid },
    });
  }

  async get(projectId: number, iid: number): Promise<Alert> {
    const alert = await this.store.get(projectId, iid);
    if (!alert) throw new NotFoundError('Alert');
    return alert;
  }

  /**
   * PUT status: resolving sets `ended_at` (and closes the incident); any other status clears it and makes
   * the alert open again, which fails when another unresolved alert has its fingerprint.
   */
  async setStatus(alert: Alert, status: AlertStatus, actor: EventActor, origin: EventOrigin): Promise<Alert> {
    if (status === alert.status) return alert;
    if (status === 'resolved') {
      return (await this.resolve(alert, new Date(), actor, origin)) ?? this.get(alert.projectId, alert.iid);
    }
    const updated = await this.store.setOpenStatus(alert, status);
    if (updated === FINGERPRINT_TAKEN)
      throw ModelError.fields({ fingerprint: ['Cannot have multiple unresolved alerts'] });
    if (!updated) throw new NotFoundError('Alert');
    return updated;
  }

  /** `gl.discussions.incident.opened`: remember the incident issue; replays change nothing. */
  async linkIncident(alertId: number, issueId: number, issueIid: number): Promise<void> {
    await this.store.linkIncident(alertId, issueId, issueIid);
  }
}
