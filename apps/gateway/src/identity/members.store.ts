import type { FilterQuery } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import { findPage, isDuplicateKeyError, type Outbox, type PageRequest } from '@gl/service-kit';
import type { IdentityModels, MemberDoc } from './identity.models';
import { findRaw } from './raw-reads';
import { publishingWrites } from './store-writes';

type SourceType = MemberDoc['sourceType'];
export type LevelRow = Pick<MemberDoc, 'sourceType' | 'accessLevel' | 'expiresAt'>;
export type MembershipRow = Pick<MemberDoc, 'sourceType' | 'sourceId' | 'accessLevel' | 'expiresAt'>;

/**
 * Users with more memberships than this have theirs read per addressed namespace instead of all at once
 * (an instance administrator in thousands of projects would otherwise hold them all in the cache).
 */
const CACHED_MEMBERSHIPS_CAP = 500;

/** What deciding a user's access reads of each membership (MembershipRow). */
const ROW_FIELDS = { sourceType: 1, sourceId: 1, accessLevel: 1, expiresAt: 1 } as const;

/** A group or project with the groups above it, whose members count for it. */
export interface MemberScope {
  type: SourceType;
  id: number;
  ancestorGroupIds: number[];
}

/** Memberships of users in groups and projects: one per (source, user), unique. */
export function createMembersStore(models: Pick<IdentityModels, 'members' | 'cache'>, outbox: Outbox) {
  const { members, cache } = models;

  /** Every membership of the user, with what deciding their access needs. */
  async function rowsOf(userId: number): Promise<MembershipRow[]> {
    return members.find({ userId }).select(ROW_FIELDS).lean();
  }

  /** Every membership of the user, whole documents (for removing them all). */
  async function allOf(userId: number): Promise<MemberDoc[]> {
    return members.find({ userId }).lean();
  }

  /** The user's direct memberships, oldest first (User#members), optionally of one kind. */
  async function pageOfUser(
    userId: number,
    sourceType: SourceType | undefined,
    request: PageRequest,
  ): Promise<{ total: number; docs: MemberDoc[] }> {
    return findPage(members, sourceType ? { userId, sourceType } : { userId }, { _id: 1 }, request);
  }

  /** How many users are direct members of any of the groups (Namespace#users_with_descendants). */
  async function distinctUsersIn(groupIds: number[]): Promise<number> {
    const rows = await members
      .find({ sourceType: 'group', sourceId: { $in: groupIds } })
      .select({ userId: 1 })
      .lean();
    return new Set(rows.map((r) => r.userId)).size;
  }

  /** Direct Owner memberships of groups held by nobody else (User#solo_owned_groups). */
  async function soloOwnedGroupIds(userId: number): Promise<number[]> {
    const owned = await members.find({ userId, sourceType: 'group', accessLevel: { $gte: 50 } }).lean();
    const solo: number[] = [];
    for (const membership of owned) {
      const others = await members.exists({
        sourceType: 'group',
        sourceId: membership.sourceId,
        accessLevel: { $gte: 50 },
        userId: { $ne: userId },
      });
      if (others === null) solo.push(membership.sourceId);
    }
    return solo;
  }

  /**
   * Every membership of the user through the identity cache, or null for a user with more than
   * CACHED_MEMBERSHIPS_CAP of them. One read per user serves every group and project they address: read
   * per namespace, a user's first requests to each cost a database command apiece (two in three of the
   * gateway's reads in the GitLab-like mix).
   */
  function cachedRowsOf(userId: number): Promise<MembershipRow[] | null> {
    return cache.get(`memberships:${userId}`, async () => {
      const rows: MembershipRow[] = await findRaw(
        members,
        { userId },
        {
          projection: ROW_FIELDS,
          limit: CACHED_MEMBERSHIPS_CAP + 1,
        },
      );
      return rows.length > CACHED_MEMBERSHIPS_CAP ? null : rows;
    });
  }

  /** The user's memberships of the groups and the project, through the identity cache. */
  async function levelRows(userId: number, groupIds: number[], projectId?: number): Promise<LevelRow[]> {
    const sources: Record<string, unknown>[] = [];
    if (groupIds.length > 0) sources.push({ sourceType: 'group', sourceId: { $in: groupIds } });
    if (projectId !== undefined) sources.push({ sourceType: 'project', sourceId: projectId });
    if (sources.length === 0) return [];
    const all = await cachedRowsOf(userId);
    if (all) {
      return all.filter((row) =>
        row.sourceType === 'group' ? groupIds.includes(row.sourceId) : row.sourceId === projectId,
      );
    }
    const key = `members:${userId}:${groupIds.join(',')}:${projectId ?? ''}`;
    return cache.get(key, () =>
      members.find({ userId, $or: sources }).select({ sourceType: 1, accessLevel: 1, expiresAt: 1 }).lean(),
    );
  }

  /** The user's highest access level on anything, expired or not; 0 without memberships. */
  async function topLevelOf(userId: number): Promise<number> {
    const top = await members.find({ userId }).sort({ accessLevel: -1 }).limit(1).lean();
    return top[0]?.accessLevel ?? 0;
  }

  async function ofSource(sourceType: SourceType, sourceId: number): Promise<MemberDoc[]> {
    return members.find({ sourceType, sourceId }).lean();
  }

  async function findDirect(
    sourceType: SourceType,
    sourceId: number,
    userId: number,
  ): Promise<MemberDoc | null> {
    return members.findOne({ sourceType, sourceId, userId }).lean();
  }

  async function exists(sourceType: SourceType, sourceId: number, userId: number): Promise<boolean> {
    return (await members.exists({ sourceType, sourceId, userId })) !== null;
  }

  /** Direct members of one source, oldest first, optionally only the given users. */
  async function pageOf(
    sourceType: SourceType,
    sourceId: number,
    userIds: number[] | undefined,
    page: PageRequest,
  ): Promise<{ total: number; docs: MemberDoc[] }> {
    const filter =
      userIds === undefined ? { sourceType, sourceId } : { sourceType, sourceId, userId: { $in: userIds } };
    return findPage(members, filter, { _id: 1 }, page);
  }

  /** Memberships of the source and of the groups above it, oldest first; one user, some users or all. */
  async function ofScope(scope: MemberScope, users?: number | number[]): Promise<MemberDoc[]> {
    const sources: FilterQuery<MemberDoc>[] = [{ sourceType: scope.type, sourceId: scope.id }];
    if (scope.ancestorGroupIds.length > 0) {
      sources.push({ sourceType: 'group', sourceId: { $in: scope.ancestorGroupIds } });
    }
    const narrow = users === undefined ? {} : { userId: Array.isArray(users) ? { $in: users } : users };
    return members
      .find({ $or: sources, ...narrow })
      .sort({ _id: 1 })
      .lean();
  }

  /** The user's memberships of the given groups. */
  async function inGroups(userId: number, groupIds: number[]): Promise<MemberDoc[]> {
    return members.find({ userId, sourceType: 'group', sourceId: { $in: groupIds } }).lean();
  }

  /** Memberships of the given groups at exactly the level. */
  async function atLevelInGroups(groupIds: number[], accessLevel: number): Promise<MemberDoc[]> {
    return members.find({ sourceType: 'group', sourceId: { $in: groupIds }, accessLevel }).lean();
  }

  /** The user's memberships of the given groups and projects. */
  async function ofUserIn(userId: number, groupIds: number[], projectIds: number[]): Promise<MemberDoc[]> {
    return members
      .find({
        userId,
        $or: [
          { sourceType: 'group', sourceId: { $in: groupIds } },
          { sourceType: 'project', sourceId: { $in: projectIds } },
        ],
      })
      .lean();
  }

  /** Whether the user belongs to any of the given groups or projects (false when there are none). */
  async function isMemberOfAny(userId: number, groupIds: number[], projectIds: number[]): Promise<boolean> {
    const or: Record<string, unknown>[] = [];
    if (groupIds.length) or.push({ sourceType: 'group', sourceId: { $in: groupIds } });
    if (projectIds.length) or.push({ sourceType: 'project', sourceId: { $in: projectIds } });
    if (or.length === 0) return false;
    return (await members.exists({ userId, $or: or })) !== null;
  }

  /**
   * Memberships expired on `today` or before (Member.expired: expiry dates are `YYYY-MM-DD`, so the string
   * order is the date order, and null matches no string range), by the `{expiresAt, _id}` index, at most
   * `limit`, leaving out the ids in `skip` (the ones this sweep already kept).
   */
  async function expiredBatch(today: string, skip: number[], limit: number): Promise<MemberDoc[]> {
    return members
      .find({ expiresAt: { $lte: today }, ...(skip.length > 0 ? { _id: { $nin: skip } } : {}) })
      .sort({ expiresAt: 1, _id: 1 })
      .limit(limit)
      .lean();
  }

  /**
   * Deletes an expired membership with its events only while its expiry is still the one read (an expiry
   * moved meanwhile keeps it). False when it is gone or changed, or when another process holds the same
   * event (the expiry event's id is fixed per membership, so a racing remover meets it as a duplicate key).
   */
  async function removeExpired(member: MemberDoc, events: EventEnvelope[]): Promise<boolean> {
    try {
      return await outbox.deleteWithEvents(members, member._id, events, { expiresAt: member.expiresAt });
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  // `insert` resolves false when the user is already a member (the unique index settles racing adds).
  const writes = publishingWrites(members, outbox);

  /** Level, expiry and `updatedAt` from `updated`, with the events that publish the change. */
  async function update(updated: MemberDoc, events: EventEnvelope[]): Promise<void> {
    const { accessLevel, expiresAt, updatedAt } = updated;
    await writes.update(updated._id, { accessLevel, expiresAt, updatedAt }, events);
  }

  return {
    allOf,
    pageOfUser,
    soloOwnedGroupIds,
    distinctUsersIn,
    rowsOf,
    levelRows,
    topLevelOf,
    ofSource,
    findDirect,
    exists,
    pageOf,
    ofScope,
    inGroups,
    atLevelInGroups,
    ofUserIn,
    isMemberOfAny,
    insert: writes.insert,
    update,
    remove: writes.remove,
    expiredBatch,
    removeExpired,
  };
}
export type MembersStore = ReturnType<typeof createMembersStore>;
