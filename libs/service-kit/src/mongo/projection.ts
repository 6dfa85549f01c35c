import type { Model, Schema } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import { isDuplicateKeyError } from './connection';
import { documentSchema } from './models';

/**
 * The one out-of-order guard of every identity projection. Consumers see an event again after a crash or
 * a nak, and replicas sharing a durable apply events in no fixed order, so a redelivered older event can
 * arrive after a newer one. Each projection record keeps the `occurredAt` of the event that wrote it; an
 * event older than that changes nothing. Records written before they carried a stamp (or by a path that
 * has no event) count as older than any event. `occurredAt` is the gateway's ISO-8601 UTC time, so string
 * order is time order; an event of the same instant still applies (a redelivery writes the same state).
 *
 * With `unlessDestroyed`, a record marked destroyed is never written again either, so a late
 * created/updated never brings a destroyed project or group back.
 *
 * The filter misses a record that is newer (or destroyed); the upsert then collides with its `_id`, and
 * that duplicate key means "leave it". Resolves whether the event's state was written.
 */
export async function projectIdentity<T>(
  model: Model<T>,
  id: string | number,
  event: Pick<EventEnvelope, 'occurredAt'>,
  set: Record<string, unknown>,
  options: { unlessDestroyed?: boolean } = {},
): Promise<boolean> {
  const filter: Record<string, unknown> = { _id: id, occurredAt: { $not: { $gt: event.occurredAt } } };
  const update: Record<string, unknown> = { ...set, occurredAt: event.occurredAt };
  if (options.unlessDestroyed) {
    filter.destroyed = { $ne: true };
    update.destroyed = false;
  }
  try {
    // strict: false: the stamp is this guard's own field, whatever the projection's schema declares.
    await model.updateOne(filter, { $set: update }, { upsert: true, strict: false });
    return true;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    return false;
  }
}

/**
 * project/group destroyed: marks the record destroyed (created if the other events never came), for good;
 * `set` adds what else the projection keeps about a removed namespace.
 */
export async function markDestroyed<T>(
  model: Model<T>,
  id: string | number,
  set: Record<string, unknown> = {},
): Promise<void> {
  // strict: false: the mark is this helper's own field, whatever the projection's schema declares.
  await model.updateOne({ _id: id }, { $set: { ...set, destroyed: true } }, { upsert: true, strict: false });
}

/** A membership as identity events carry it; its projection record is keyed by all three ids. */
export interface MembershipData {
  sourceType: 'group' | 'project';
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
}

/** `<sourceType>:<sourceId>:<userId>`: a string `_id`, which FerretDB looks up through its index. */
export const membershipId = (data: Pick<MembershipData, 'sourceType' | 'sourceId' | 'userId'>): string =>
  `${data.sourceType}:${data.sourceId}:${data.userId}`;

/** A membership projection record: keyed by `membershipId`, found by user. */
export interface MembershipDoc extends MembershipData {
  _id: string;
}

/** The schema of a service's membership projection (the same record wherever memberships are kept). */
export function membershipSchema(): Schema<MembershipDoc> {
  return documentSchema<MembershipDoc>({
    _id: String,
    sourceType: String,
    sourceId: Number,
    userId: { type: Number, index: true },
    accessLevel: Number,
    expiresAt: { type: String, default: null },
  });
}

/** member.added / member.updated: writes the membership the event carries, unless a newer event did. */
export async function recordMembership<T>(
  model: Model<T>,
  data: MembershipData,
  event: Pick<EventEnvelope, 'occurredAt'>,
): Promise<void> {
  const { sourceType, sourceId, userId, accessLevel, expiresAt } = data;
  await projectIdentity(model, membershipId(data), event, {
    sourceType,
    sourceId,
    userId,
    accessLevel,
    expiresAt,
  });
}

/** member.removed / member.expired. */
export async function forgetMembership<T>(model: Model<T>, data: MembershipData): Promise<void> {
  await model.deleteOne({ _id: membershipId(data) });
}
