import type { EventActor, EventEnvelope } from '@gl/contracts';
import { DOMAIN_EVENT_TYPES, EVENT_TEXT_LIMITS, type AlertCreatedData } from '@gl/contracts';
import {
  ModelError,
  NotFoundError,
  createEvent,
  excerpt,
  isDuplicateKeyError,
  pushEvents,
  withEvents,
  type Counters,
  type EventOrigin,
  type Outbox,
} from '@gl/service-kit';
import type { MappedAlert } from './alert-payload';
import type { AlertDoc, AlertsModels, IntegrationDoc } from './alerts.models';

export const SEVERITY_RANK = { critical: 0, high: 1, medium: 2, low: 3, info: 4, unknown: 5 } as const;
export const STATUS_RANK = { triggered: 0, acknowledged: 1, resolved: 2, ignored: 3 } as const;
const MAX_ATTEMPTS = 8;

/**
 * Duplicate key on insert is code 11000 on both servers; FerretDB reports one on findAndModify as an
 * internal error naming the SQLite UNIQUE constraint.
 */
function isUniqueViolation(err: unknown): boolean {
  return isDuplicateKeyError(err) || /UNIQUE constraint failed/.test((err as Error | null)?.message ?? '');
}

const openKeyOf = (id: number, fingerprint: string | null): string =>
  fingerprint ? `fp:${fingerprint}` : `id:${id}`;

/**
 * Alert ingestion and status changes (GitLab's AlertProcessing): grouping by fingerprint among unresolved
 * alerts, resolving by `end_time`, and the events that open and close incidents.
 */
export class AlertsService {
  constructor(
    private readonly models: AlertsModels,
    private readonly counters: Counters,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Processes one mapped payload; null when nothing was stored (a resolving payload without an open
   * alert). Concurrent identical payloads race on the unique (projectId, openKey) index: the loser of an
   * insert finds the winner's alert and counts its event instead.
   */
  async ingest(
    integration: IntegrationDoc,
    mapped: MappedAlert,
    payload: Record<string, unknown>,
    origin: EventOrigin,
  ): Promise<AlertDoc | null> {
    const { projectId } = integration;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (mapped.fingerprint) {
        const existing = await this.models.alerts
          .findOne({ projectId, openKey: openKeyOf(0, mapped.fingerprint) })
          .lean<AlertDoc>();
        if (existing) {
          const updated = mapped.endedAt
            ? await this.resolve(existing, mapped.endedAt, null, origin)
            : await this.models.alerts
                .findOneAndUpdate(
                  { _id: existing._id, openKey: existing.openKey },
                  { $inc: { events: 1 }, $set: { updatedAt: new Date() } },
                  { new: true },
                )
                .lean<AlertDoc>();
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
    integration: IntegrationDoc,
    mapped: MappedAlert,
    payload: Record<string, unknown>,
    origin: EventOrigin,
  ): Promise<AlertDoc | null> {
    const [id, iid] = await Promise.all([
      this.counters.next('alerts'),
      this.counters.next(`alert-iid:${integration.projectId}`),
    ]);
    const now = new Date();
    const doc: AlertDoc = {
      _id: id,
      projectId: integration.projectId,
      iid,
      integrationId: integration._id,
      title: mapped.title,
      description: mapped.description,
      severity: mapped.severity,
      severityRank: SEVERITY_RANK[mapped.severity],
      status: 'triggered',
      statusRank: STATUS_RANK.triggered,
      service: mapped.service,
      monitoringTool: mapped.monitoringTool,
      hosts: mapped.hosts,
      startedAt: mapped.startedAt,
      endedAt: null,
      events: 1,
      fingerprint: mapped.fingerprint,
      openKey: openKeyOf(id, mapped.fingerprint),
      environmentName: mapped.environmentName,
      payload: JSON.stringify(payload),
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
        title: excerpt(doc.title, EVENT_TEXT_LIMITS.title),
        description: excerpt(doc.description, EVENT_TEXT_LIMITS.alertDescription),
        severity: doc.severity,
        createIncident: integration.createIncident,
      } satisfies AlertCreatedData,
    });
    try {
      await this.models.alerts.collection.insertOne(withEvents(doc, [event]) as never);
    } catch (err) {
      if (isUniqueViolation(err) && mapped.fingerprint) return null;
      throw err;
    }
    this.outbox.kick();
    return doc;
  }

  /** Resolves an open alert; null when it was no longer open. */
  private async resolve(
    alert: AlertDoc,
    endedAt: Date,
    actor: EventActor,
    origin: EventOrigin,
  ): Promise<AlertDoc | null> {
    const events = [this.resolvedEvent(alert, actor, origin)];
    const updated = await this.models.alerts
      .findOneAndUpdate(
        { _id: alert._id, status: { $ne: 'resolved' } },
        pushEvents(
          {
            $set: {
              status: 'resolved',
              statusRank: STATUS_RANK.resolved,
              endedAt,
              openKey: openKeyOf(alert._id, null),
              updatedAt: new Date(),
            },
          },
          events,
        ),
        { new: true },
      )
      .lean<AlertDoc>();
    if (updated) this.outbox.kick();
    return updated;
  }

  private resolvedEvent(alert: AlertDoc, actor: EventActor, origin: EventOrigin): EventEnvelope {
    return createEvent(origin, {
      type: DOMAIN_EVENT_TYPES.alerts.alertResolved,
      actor,
      projectId: alert.projectId,
      data: { alertId: String(alert._id), alertIid: alert.iid },
    });
  }

  async get(projectId: number, iid: number): Promise<AlertDoc> {
    const alert = await this.models.alerts.findOne({ projectId, iid }).lean<AlertDoc>();
    if (!alert) throw new NotFoundError('Alert');
    return alert;
  }

  /**
   * PUT status: resolving sets `ended_at` (and closes the incident); any other status clears it and makes
   * the alert open again, which fails when another unresolved alert has its fingerprint.
   */
  async setStatus(
    alert: AlertDoc,
    status: AlertDoc['status'],
    actor: EventActor,
    origin: EventOrigin,
  ): Promise<AlertDoc> {
    if (status === alert.status) return alert;
    if (status === 'resolved') {
      return (await this.resolve(alert, new Date(), actor, origin)) ?? this.get(alert.projectId, alert.iid);
    }
    try {
      const updated = await this.models.alerts
        .findOneAndUpdate(
          { _id: alert._id },
          {
            $set: {
              status,
              statusRank: STATUS_RANK[status],
              endedAt: null,
              openKey: openKeyOf(alert._id, alert.fingerprint),
              updatedAt: new Date(),
            },
          },
          { new: true },
        )
        .lean<AlertDoc>();
      if (!updated) throw new NotFoundError('Alert');
      return updated;
    } catch (err) {
      if (isUniqueViolation(err))
        throw ModelError.fields({ fingerprint: ['Cannot have multiple unresolved alerts'] });
      throw err;
    }
  }

  /** `gl.discussions.incident.opened`: remember the incident issue; replays change nothing. */
  async linkIncident(alertId: number, issueId: number, issueIid: number): Promise<void> {
    await this.models.alerts.updateOne({ _id: alertId }, { $set: { issueId, issueIid } });
  }
}
