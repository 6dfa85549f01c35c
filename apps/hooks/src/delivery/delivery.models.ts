import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';
import type { EventEnvelope, FeatureAccessLevel } from '@gl/contracts';
import { defineModel, documentSchema } from '@gl/service-kit';

export type DeliveryStatus = 'queued' | 'delivered' | 'failed';

/** What a delivery's last attempt got back (GitLab's WebHookLog columns). */
export interface DeliveryAttempt {
  at: Date;
  responseStatus: string;
  responseHeaders: Record<string, string>;
  responseBody: string;
  executionDuration: number;
  error: string | null;
}

/**
 * One payload for one hook (GitLab's WebHookService run from WebHookWorker, and its `web_hook_logs` row):
 * the payload as it was when the event was consumed, sent in `sequence` order per hook, retried until
 * delivered or given up; never deleted by delivery.
 */
export interface DeliveryDoc {
  /** The log's id (WebHookLog#id), from one counter across hooks. */
  _id: number;
  hookId: number;
  /** The domain event it came from; `{hookId, eventId}` is unique, so a redelivered event queues nothing. */
  eventId: string;
  /**
   * The event's sequence in the event stream (the order events were recorded in): the sender sends a
   * hook's deliveries in `{sequence, _id}` order, and only those the durable consumer's ack floor has
   * passed (ack-floor.ts). A resend takes the hook's highest queued one, and so goes after it (by `_id`);
   * an event handed over without its stream sequence (tests) is at 0, sent in the order it was queued.
   */
  sequence: number;
  /** GitLab's hook name (`issue_hooks`, `note_hooks`…), the log's `trigger`. */
  trigger: string;
  /** The X-Gitlab-Event header. */
  eventName: string;
  /** The Idempotency-Key header: fixed at insert, the same on every retry and resend. */
  idempotencyKey: string;
  /** The X-Gitlab-Event-UUID header: the event's id. */
  eventUuid: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  /** When retries stop: `failed` after this. */
  giveUpAt: Date;
  /** Set from the first attempt on: the URL as sent (with variables), the request headers sent. */
  url: string | null;
  requestHeaders: Record<string, string>;
  last: DeliveryAttempt | null;
  reason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One sender at a time per hook: `owner` holds the hook's queue until `until`. */
export interface HookLeaseDoc {
  _id: number;
  owner: string;
  until: Date;
}

/** The projects hooks deliver for, as identity events describe them (for the payloads' `project`). */
export interface HookProjectDoc {
  _id: number;
  name: string;
  path: string;
  fullPath: string;
  namespaceId: number;
  ancestorGroupIds: number[];
  visibility: 'private' | 'internal' | 'public';
  /**
   * Its features' access levels, from events that carry them: signed into the reads of discussions, which
   * then need not read its own copy for its feature gate. Absent from older events and copies.
   */
  features?: Record<string, FeatureAccessLevel>;
  occurredAt: string;
  /** The project was deleted: the copy is a mark with no other field (parent-removal.ts). */
  destroyed?: boolean;
}

/**
 * A project's newest issue, merge request or note as its event described it (`<projectId>:<kind>`): what a
 * hook test sends (TestHooks::ProjectService takes the project's newest record).
 */
export interface HookSampleDoc {
  _id: string;
  event: EventEnvelope;
  occurredAt: string;
}

export interface DeliveryModels {
  deliveries: Model<DeliveryDoc>;
  leases: Model<HookLeaseDoc>;
  projects: Model<HookProjectDoc>;
  samples: Model<HookSampleDoc>;
}

export function createDeliveryModels(connection: Connection): DeliveryModels {
  const deliveries = documentSchema<DeliveryDoc>(
    {
      _id: Number,
      hookId: Number,
      eventId: String,
      sequence: Number,
      trigger: String,
      eventName: String,
      idempotencyKey: String,
      eventUuid: String,
      payload: String,
      status: String,
      attempts: Number,
      nextAttemptAt: Date,
      giveUpAt: Date,
      url: { type: String, default: null },
      requestHeaders: { type: Schema.Types.Mixed, default: {} },
      last: { type: Schema.Types.Mixed, default: null },
      reason: { type: String, default: null },
      createdAt: Date,
      updatedAt: Date,
    },
    { minimize: false },
  );
  // A redelivered event finds its deliveries already there.
  deliveries.index({ hookId: 1, eventId: 1 }, { unique: true });
  // A hook's queue head (a resend shares its sequence with the delivery before it), and its log newest first.
  deliveries.index({ hookId: 1, status: 1, sequence: 1, _id: 1 });
  deliveries.index({ hookId: 1, _id: 1 });
  deliveries.index({ hookId: 1, createdAt: -1, _id: -1 });
  // What is due, across hooks.
  deliveries.index({ status: 1, nextAttemptAt: 1 });
  const leases = documentSchema<HookLeaseDoc>({ _id: Number, owner: String, until: Date });
  const projects = documentSchema<HookProjectDoc>({
    _id: Number,
    name: String,
    path: String,
    fullPath: String,
    namespaceId: Number,
    ancestorGroupIds: [Number],
    visibility: String,
    features: { type: Schema.Types.Mixed, default: undefined },
    occurredAt: String,
    destroyed: Boolean,
  });
  // The projects below a group, in id order (a group hook's test).
  projects.index({ ancestorGroupIds: 1, _id: 1 });
  return {
    deliveries: defineModel(connection, 'HookDelivery', deliveries, 'web_hook_deliveries'),
    leases: defineModel(connection, 'HookLease', leases, 'web_hook_leases'),
    projects: defineModel(connection, 'HookProject', projects, 'hook_projects'),
    samples: defineModel(
      connection,
      'HookSample',
      documentSchema<HookSampleDoc>({ _id: String, event: Schema.Types.Mixed, occurredAt: String }),
      'hook_samples',
    ),
  };
}
