import type { FilterQuery, Model } from 'mongoose';
import type { EventEnvelope, listAlertsQuery } from '@gl/contracts';
import { findPage, isDuplicateKeyError, pushEvents, withEvents } from '@gl/service-kit';
import type { Counters, PageRequest } from '@gl/service-kit';
import type { z } from 'zod';
import type { AlertDoc } from './alerts.models';

/** An alert as the service and presenters use it: the payload decoded, the storage-only keys left out. */
export type Alert = Omit<AlertDoc, 'payload' | 'openKey' | 'severityRank' | 'statusRank'> & {
  payload: Record<string, unknown>;
};
export type AlertStatus = AlertDoc['status'];
export type AlertListQuery = Pick<
  z.infer<typeof listAlertsQuery>,
  'status' | 'severity' | 'search' | 'order_by' | 'sort'
>;

/** `setOpenStatus` outcome when another unresolved alert of the project has the alert's fingerprint. */
export const FINGERPRINT_TAKEN = 'fingerprint-taken';

/** Sort keys: 0 = most critical / triggered. */
const SEVERITY_RANK = { critical: 0, high: 1, medium: 2, low: 3, info: 4, unknown: 5 } as const;
const STATUS_RANK = { triggered: 0, acknowledged: 1, resolved: 2, ignored: 3 } as const;

/** Sort fields; severity and status sort by rank, where ascending means less critical / Ignored first. */
const SORT_FIELDS: Record<NonNullable<AlertListQuery['order_by']>, keyof AlertDoc> = {
  started_at: 'startedAt',
  ended_at: 'endedAt',
  created_at: 'createdAt',
  event_count: 'events',
  severity: 'severityRank',
  status: 'statusRank',
};
const RANKED = new Set(['severity', 'status']);

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The unique (projectId, openKey) index lets one unresolved alert per fingerprint exist. */
const openKeyOf = (id: number, fingerprint: string | null): string =>
  fingerprint ? `fp:${fingerprint}` : `id:${id}`;

/**
 * Duplicate key on insert is code 11000 on both servers; FerretDB reports one on findAndModify as an
 * internal error naming the SQLite UNIQUE constraint.
 */
function isUniqueViolation(err: unknown): boolean {
  return isDuplicateKeyError(err) || /UNIQUE constraint failed/.test((err as Error | null)?.message ?? '');
}

/** The payload is stored as JSON text: custom fields may hold keys FerretDB refuses (`.`, `$`). */
function decode(doc: AlertDoc): Alert;
function decode(doc: AlertDoc | null): Alert | null;
function decode(doc: AlertDoc | null): Alert | null {
  if (!doc) return null;
  const { payload, openKey, severityRank, statusRank, ...alert } = doc;
  return { ...alert, payload: JSON.parse(payload) as Record<string, unknown> };
}

function encode(alert: Alert): AlertDoc {
  return {
    ...alert,
    payload: JSON.stringify(alert.payload),
    openKey: openKeyOf(alert._id, alert.status === 'resolved' ? null : alert.fingerprint),
    severityRank: SEVERITY_RANK[alert.severity],
    statusRank: STATUS_RANK[alert.status],
  };
}

function listFilter(projectId: number, query: AlertListQuery): FilterQuery<AlertDoc> {
  const filter: FilterQuery<AlertDoc> = { projectId };
  if (query.status) filter.status = query.status;
  if (query.severity) filter.severity = query.severity;
  if (query.search) {
    const pattern = new RegExp(escapeRegex(query.search), 'i');
    filter.$or = [
      { title: pattern },
      { description: pattern },
      { service: pattern },
      { monitoringTool: pattern },
      { hosts: pattern },
    ];
  }
  return filter;
}

function listSort(query: AlertListQuery): Record<string, 1 | -1> {
  const orderBy = query.order_by ?? 'started_at';
  const asc = (query.sort ?? 'desc') === 'asc';
  // Ranks grow with less criticality, so "ascending" severity/status is descending rank.
  const direction = (RANKED.has(orderBy) ? !asc : asc) ? 1 : -1;
  return { [SORT_FIELDS[orderBy]]: direction, _id: direction };
}

/** Stored alerts (`alerts`), read and written by name; the events they publish ride on the same writes. */
export function createAlertsStore(model: Model<AlertDoc>, counters: Counters) {
  const update = async (filter: FilterQuery<AlertDoc>, change: Record<string, unknown>) =>
    decode(await model.findOneAndUpdate(filter, change, { new: true }).lean<AlertDoc>());

  return {
    /** The model whose documents carry the alerts' events, for the outbox relay's targeted pass. */
    modelName: model.modelName,

    /** A new alert's id and its project-scoped iid. */
    async allocate(projectId: number): Promise<{ id: number; iid: number }> {
      const [id, iid] = await Promise.all([counters.next('alerts'), counters.next(`alert-iid:${projectId}`)]);
      return { id, iid };
    },

    async get(projectId: number, iid: number): Promise<Alert | null> {
      return decode(await model.findOne({ projectId, iid }).lean<AlertDoc>());
    },

    /** The project's unresolved alert with this fingerprint. */
    async findOpen(projectId: number, fingerprint: string): Promise<Alert | null> {
      return decode(await model.findOne({ projectId, openKey: openKeyOf(0, fingerprint) }).lean<AlertDoc>());
    },

    async list(
      projectId: number,
      query: AlertListQuery,
      page: PageRequest,
    ): Promise<{ total: number; alerts: Alert[] }> {
      const { total, docs } = await findPage(model, listFilter(projectId, query), listSort(query), page);
      return { total, alerts: docs.map((doc) => decode(doc)) };
    },

    /**
     * Stores a new alert with its events; false when an unresolved alert with the same fingerprint was
     * stored first (concurrent identical payloads race on the unique open key).
     */
    async insert(alert: Alert, events: EventEnvelope[]): Promise<boolean> {
      try {
        await model.collection.insertOne(withEvents(encode(alert), events) as never);
        return true;
      } catch (err) {
        if (isUniqueViolation(err) && alert.fingerprint) return false;
        throw err;
      }
    },

    /**
     * One more event for the project's unresolved alert with this fingerprint, found and counted in one
     * keyed write (the unique open key); null when there is none.
     */
    countOpenEvent(projectId: number, fingerprint: string): Promise<Alert | null> {
      return update(
        { projectId, openKey: openKeyOf(0, fingerprint) },
        { $inc: { events: 1 }, $set: { updatedAt: new Date() } },
      );
    },

    /** Resolves the alert with its events; null when it was already resolved. */
    resolve(alert: Alert, endedAt: Date, events: EventEnvelope[]): Promise<Alert | null> {
      const $set = {
        status: 'resolved',
        statusRank: STATUS_RANK.resolved,
        endedAt,
        openKey: openKeyOf(alert._id, null),
        updatedAt: new Date(),
      };
      return update({ _id: alert._id, status: { $ne: 'resolved' } }, pushEvents({ $set }, events));
    },

    /**
     * Any status but resolved, with its events: the alert is open again, under its fingerprint if it has
     * one.
     */
    async setOpenStatus(
      alert: Alert,
      status: Exclude<AlertStatus, 'resolved'>,
      events: EventEnvelope[] = [],
    ): Promise<Alert | null | typeof FINGERPRINT_TAKEN> {
      const $set = {
        status,
        statusRank: STATUS_RANK[status],
        endedAt: null,
        openKey: openKeyOf(alert._id, alert.fingerprint),
        updatedAt: new Date(),
      };
      try {
        return await update({ _id: alert._id }, pushEvents({ $set }, events));
      } catch (err) {
        if (isUniqueViolation(err)) return FINGERPRINT_TAKEN;
        throw err;
      }
    },

    async linkIncident(alertId: number, issueId: number, issueIid: number): Promise<void> {
      await model.updateOne({ _id: alertId }, { $set: { issueId, issueIid } });
    },
  };
}
export type AlertsStore = ReturnType<typeof createAlertsStore>;
