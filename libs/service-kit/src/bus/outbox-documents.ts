import { Schema, type Model } from 'mongoose';
import { eventEnvelope, type EventEnvelope } from '@gl/contracts';
import { encodeEnvelope } from './payload-limit';
import { RejectedEventError } from './publish-errors';

/**
 * What the outbox stores: the fields a document carries its unpublished events in, the helpers that put
 * them there in the same single-document write, and the `outbox` collection's entries (events of deletes,
 * and published events kept for replay). The relay (outbox.ts) reads and clears them.
 */

export const OUTBOX_FIELD = '_outbox';
export const OUTBOX_PENDING_FIELD = '_outboxPending';
/** Refusals of the document's first unpublished event, and when the relay may try it again. */
export const OUTBOX_ATTEMPTS_FIELD = '_outboxAttempts';
export const OUTBOX_RETRY_AT_FIELD = '_outboxRetryAt';
export const OUTBOX_ERROR_FIELD = '_outboxError';
export const OUTBOX_FIRST_FAILED_FIELD = '_outboxFirstFailedAt';
export const FAILURE_FIELDS = {
  [OUTBOX_ATTEMPTS_FIELD]: 1,
  [OUTBOX_RETRY_AT_FIELD]: 1,
  [OUTBOX_ERROR_FIELD]: 1,
  [OUTBOX_FIRST_FAILED_FIELD]: 1,
} as const;

export interface OutboxEntry {
  _id: string;
  /** The envelope as JSON text: stored verbatim, whatever keys its data holds (FerretDB refuses `.`/`$` keys). */
  payload: string;
  state: 'pending' | 'ready' | 'published';
  check?: { model: string; docId: unknown };
  createdAt: Date;
  publishedAt?: Date;
  /** Refusals so far, the last one's reason, when the first happened and when to try again. */
  attempts?: number;
  lastError?: string;
  firstFailedAt?: Date;
  nextAttemptAt?: Date;
}

export const outboxEntrySchema = new Schema<OutboxEntry>(
  {
    _id: String,
    payload: String,
    state: String,
    check: Schema.Types.Mixed,
    createdAt: Date,
    publishedAt: Date,
    attempts: Number,
    lastError: String,
    firstFailedAt: Date,
    nextAttemptAt: Date,
  },
  { versionKey: false },
);
outboxEntrySchema.index({ state: 1, createdAt: 1 });
outboxEntrySchema.index({ state: 1, publishedAt: 1 });

/**
 * Adds the embedded-outbox fields to a schema whose documents publish events. Events are stored as JSON
 * strings: FerretDB v1 ignores `$pull` with a condition on sub-documents, but `$pullAll` of exact strings
 * works on both servers.
 */
export function addOutboxFields(schema: Schema): void {
  schema.add({ [OUTBOX_FIELD]: { type: [String], default: undefined } });
  schema.add({ [OUTBOX_PENDING_FIELD]: { type: Boolean, index: true } });
  schema.add({
    [OUTBOX_ATTEMPTS_FIELD]: Number,
    [OUTBOX_RETRY_AT_FIELD]: Date,
    [OUTBOX_ERROR_FIELD]: String,
    [OUTBOX_FIRST_FAILED_FIELD]: Date,
  });
}

/** A stored event that does not parse, or is not an envelope, can never be published. */
export function decodeStoredEvent(raw: string): EventEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new RejectedEventError('stored event is not JSON');
  }
  const parsed = eventEnvelope.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RejectedEventError(`not an event envelope: ${issue?.path.join('.')} ${issue?.message}`);
  }
  // The stored envelope itself, not zod's copy: it is published exactly as it was written.
  return value as EventEnvelope;
}

/** Throws UnpublishableEventError for an event the bus could never take: the write fails, nothing is stored. */
export const encodeEvents = (events: EventEnvelope[]): string[] => events.map(encodeEnvelope);

/** A new document carrying its events. */
export function withEvents<T extends object>(doc: T, events: EventEnvelope[]): T {
  if (events.length === 0) return doc;
  return { ...doc, [OUTBOX_FIELD]: encodeEvents(events), [OUTBOX_PENDING_FIELD]: true };
}

type Update = Record<string, unknown> & { $set?: Record<string, unknown>; $push?: Record<string, unknown> };

/** An update that appends its events to the document in the same atomic write. */
export function pushEvents(update: Update, events: EventEnvelope[]): Update {
  if (events.length === 0) return update;
  return {
    ...update,
    $set: { ...(update.$set ?? {}), [OUTBOX_PENDING_FIELD]: true },
    $push: { ...(update.$push ?? {}), [OUTBOX_FIELD]: { $each: encodeEvents(events) } },
  };
}

// Mongoose models are invariant in their document type, so a registry of models of every kind needs `any`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModel = Model<any>;
