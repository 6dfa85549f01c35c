import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './connection';

/**
 * Upserts a projection record unless it is marked destroyed, so a late created/updated event never brings a
 * destroyed project or group back: the filter misses the destroyed record, the upsert then collides with
 * its `_id`, and that duplicate key means "destroyed, leave it".
 */
export async function upsertUnlessDestroyed<T>(
  model: Model<T>,
  id: string | number,
  set: Record<string, unknown>,
): Promise<void> {
  try {
    await model.updateOne(
      { _id: id, destroyed: { $ne: true } },
      { $set: { ...set, destroyed: false } },
      { upsert: true },
    );
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
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

/** member.added / member.updated: writes the membership the event carries. */
export async function recordMembership<T>(model: Model<T>, data: MembershipData): Promise<void> {
  const { sourceType, sourceId, userId, accessLevel, expiresAt } = data;
  await model.updateOne(
    { _id: membershipId(data) },
    { $set: { sourceType, sourceId, userId, accessLevel, expiresAt } },
    { upsert: true },
  );
}

/** member.removed / member.expired. */
export async function forgetMembership<T>(model: Model<T>, data: MembershipData): Promise<void> {
  await model.deleteOne({ _id: membershipId(data) });
}
