import type { FilterQuery } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import {
  findPage,
  insertUnique,
  pushEvents,
  withEvents,
  type Outbox,
  type PageRequest,
} from '@gl/service-kit';
import type { IdentityModels, TokenDoc, UserDoc, UserState } from './identity.models';
import { searchPattern, userSearchConditions } from './queries';
import { findOneRaw } from './raw-reads';
import { createUsageWrites } from './usage-writes';
import { nonInternalUsers } from './users.internal';
import { createUserEmailModel, type UserEmailDoc } from './user-emails.model';

export interface UserFilters {
  username?: string;
  search?: string;
  active?: boolean;
  blocked?: boolean;
  /** UsersFinder#by_non_internal (`exclude_internal=true`). */
  exclude_internal?: boolean;
}

/** The day this process last wrote each user's last_activity_on; the cached record may be older. */
const activityWritten = new Map<number, string>();

/** When this process last wrote each token's last_used_at; the cached record may be older. */
const lastUseWritten = new Map<number, number>();
/**
 * GitLab's PersonalAccessTokens::LastUsedService (app/services/personal_access_tokens/last_used_service.rb)
 * writes last_used_at only when it is 10 minutes old; a minute here made 200 active users' reads 3 writes
 * a second.
 */
const LAST_USE_INTERVAL_MS = 10 * 60_000;

/** Users with their personal access tokens and e-mail addresses. */
export function createUsersStore(models: Pick<IdentityModels, 'users' | 'tokens' | 'cache'>, outbox: Outbox) {
  const { users, tokens, cache } = models;
  const emails = createUserEmailModel(users.db);
  // The unique index on addresses must exist before the first insert relies on it.
  let emailIndexes: Promise<unknown> | null = null;
  const emailsReady = (): Promise<unknown> => (emailIndexes ??= emails.init());
  const usage = createUsageWrites(tokens.collection, users.collection);

  // Reads that show or decide on last_activity_on or last_used_at see the uses this process has not yet
  // written (usage-writes.ts); the lookups of authentication do not need them.
  const maybeUser = (user: UserDoc | null) => (user ? usage.withUsage(user) : null);

  async function findById(id: number): Promise<UserDoc | null> {
    return maybeUser(await users.findById(id).lean());
  }

  /** The lookup every authenticated request makes, through the identity cache. */
  async function cachedById(id: number): Promise<UserDoc | null> {
    return cache.get(`user:${id}`, () => findOneRaw(users, { _id: id }));
  }

  async function findByUsername(username: string): Promise<UserDoc | null> {
    return maybeUser(await users.findOne({ usernameLower: username.toLowerCase() }).lean());
  }

  async function byIds(ids: number[]): Promise<UserDoc[]> {
    return (await users.find({ _id: { $in: ids } }).lean()).map(usage.withUsage);
  }

  /** Users whose name or username contains the text, or whose e-mail address is exactly it (User.search). */
  async function idsMatching(text: string): Promise<number[]> {
    const matching = await users
      .find({ $or: userSearchConditions(text) })
      .select({ _id: 1 })
      .lean();
    return matching.map((u) => u._id);
  }

  /** Users whose name or username contains the text. */
  async function idsNamed(text: string): Promise<number[]> {
    const pattern = searchPattern(text);
    const matching = await users
      .find({ $or: [{ name: pattern }, { username: pattern }] })
      .select({ _id: 1 })
      .lean();
    return matching.map((u) => u._id);
  }

  /** GitLab's UsersFinder: exact username, or a search over name, username and exact e-mail. */
  function listFilter(filters: UserFilters): FilterQuery<UserDoc> {
    const query: FilterQuery<UserDoc> = {};
    if (filters.username !== undefined) query.usernameLower = filters.username.toLowerCase();
    if (filters.search) query.$or = userSearchConditions(filters.search);
    if (filters.active) query.state = 'active';
    if (filters.blocked) query.state = 'blocked';
    // GitLab lists internal users (the Ghost User) unless they are excluded.
    if (filters.exclude_internal) Object.assign(query, nonInternalUsers);
    return query;
  }

  /** One offset page of the list, newest first unless another order is given. */
  async function list(
    filters: UserFilters,
    page: PageRequest,
    sort: Record<string, 1 | -1> = { _id: -1 },
  ): Promise<{ total: number; docs: UserDoc[] }> {
    const found = await findPage(users, listFilter(filters), sort, page);
    return { ...found, docs: found.docs.map(usage.withUsage) };
  }

  /** The first `limit` users of the list from `from` on in this order, with no skip: a keyset page. */
  async function seek(
    filters: UserFilters,
    from: FilterQuery<UserDoc>,
    sort: Record<string, 1 | -1>,
    limit: number,
  ): Promise<UserDoc[]> {
    const filter = listFilter(filters);
    // The first page (no cursor) has the offset list's own filter: the same read as its first page.
    const docs = await users
      .find(Object.keys(from).length === 0 ? filter : { $and: [from, filter] })
      .sort(sort)
      .limit(limit)
      .lean<UserDoc[]>();
    return docs.map(usage.withUsage);
  }

  async function canCreateGroup(id: number): Promise<boolean> {
    const user = await users.findById(id).select({ canCreateGroup: 1 }).lean();
    return user?.canCreateGroup ?? false;
  }

  async function namespaceIdOf(id: number): Promise<number | undefined> {
    return (await users.findById(id).select({ namespaceId: 1 }).lean())?.namespaceId;
  }

  /** False when the username or primary address is someone else's (unique indexes). */
  async function insert(user: UserDoc, events: EventEnvelope[]): Promise<boolean> {
    return insertUnique(users, withEvents(user, events));
  }

  /** The address as a primary one, or any address in `user_emails`. */
  async function emailTaken(email: string): Promise<boolean> {
    await emailsReady();
    const emailLower = email.toLowerCase();
    return (await users.exists({ emailLower })) !== null || (await emails.exists({ emailLower })) !== null;
  }

  async function primaryEmailTaken(email: string): Promise<boolean> {
    return (await users.exists({ emailLower: email.toLowerCase() })) !== null;
  }

  /** Records an address; false when it belongs to someone already (the unique index decides). */
  async function insertEmail(record: UserEmailDoc): Promise<boolean> {
    await emailsReady();
    return insertUnique(emails, record);
  }

  async function deleteEmail(id: number): Promise<void> {
    await emails.deleteOne({ _id: id });
  }

  /** A secondary address on the user document, with the event that publishes it, in one write. */
  async function pushEmail(userId: number, email: string, updatedAt: Date, events: EventEnvelope[]) {
    await users.updateOne(
      { _id: userId },
      pushEvents({ $push: { emails: email }, $set: { updatedAt } }, events),
    );
  }

  async function findEmail(userId: number, emailId: number): Promise<UserEmailDoc | null> {
    await emailsReady();
    return emails.findOne({ _id: emailId, userId }).lean();
  }

  /** Removes a secondary address and its copy on the user document, with the event, in that order. */
  async function pullEmail(record: UserEmailDoc, updatedAt: Date, events: EventEnvelope[]): Promise<void> {
    await emails.deleteOne({ _id: record._id });
    await users.updateOne(
      { _id: record.userId },
      pushEvents({ $pull: { emails: record.email }, $set: { updatedAt } }, events),
    );
  }

  async function tokenById(id: number): Promise<TokenDoc | null> {
    const token = await tokens.findById(id).lean();
    return token ? usage.withTokenUse(token) : null;
  }

  /** PersonalAccessTokensFinder: one user's tokens or everyone's, narrowed by state; oldest first. */
  async function listTokens(
    filter: { userId?: number; revoked?: boolean; state?: 'active' | 'inactive'; search?: string },
    today: string,
    page: PageRequest,
  ): Promise<{ total: number; docs: TokenDoc[] }> {
    const and: FilterQuery<TokenDoc>[] = [];
    if (filter.userId !== undefined) and.push({ userId: filter.userId });
    if (filter.revoked !== undefined) and.push({ revoked: filter.revoked });
    // Active: not revoked and not expired (a token expires at the start of its expiry day).
    const active = { revoked: false, $or: [{ expiresAt: null }, { expiresAt: { $gt: today } }] };
    const inactive = { $or: [{ revoked: true }, { expiresAt: { $lte: today } }] };
    if (filter.state === 'active') and.push(active);
    if (filter.state === 'inactive') and.push(inactive);
    if (filter.search) and.push({ name: searchPattern(filter.search) });
    const found = await findPage(tokens, and.length > 0 ? { $and: and } : {}, { _id: 1 }, page);
    return { ...found, docs: found.docs.map(usage.withTokenUse) };
  }

  /** Revokes a token; false when it already was. The identity cache is flushed by the write. */
  async function revokeToken(id: number): Promise<boolean> {
    const result = await tokens.updateOne({ _id: id, revoked: false }, { $set: { revoked: true } });
    return result.modifiedCount === 1;
  }

  async function listEmails(
    userId: number,
    page: PageRequest,
  ): Promise<{ total: number; docs: UserEmailDoc[] }> {
    await emailsReady();
    return findPage(emails, { userId }, { _id: 1 }, page);
  }

  /**
   * A state change, compare-and-set on the state it leaves, with the event that publishes it; false when
   * a racing request changed the state first.
   */
  async function transitionState(
    userId: number,
    from: UserState,
    to: UserState,
    updatedAt: Date,
    events: EventEnvelope[],
  ): Promise<boolean> {
    const result = await users.updateOne(
      { _id: userId, state: from },
      pushEvents({ $set: { state: to, updatedAt } }, events),
    );
    return result.modifiedCount === 1;
  }

  /**
   * Users::ActivityService: the day of the user's last API request, written at most once a day per user
   * and process, with other uses of the moment (usage-writes.ts).
   */
  function recordActivity(user: Pick<UserDoc, '_id' | 'lastActivityOn'>, today: string): void {
    if (user.lastActivityOn === today || activityWritten.get(user._id) === today) return;
    if (activityWritten.size > 100_000) activityWritten.clear();
    activityWritten.set(user._id, today);
    usage.userActive(user._id, today);
  }

  /** Sets only the given fields, with the event that publishes the change. */
  async function update(userId: number, changes: Partial<UserDoc>, events: EventEnvelope[]): Promise<void> {
    await users.updateOne({ _id: userId }, pushEvents({ $set: changes }, events));
  }

  /** The user document goes with its event (the outbox's delete protocol); false when already gone. */
  async function remove(userId: number, events: EventEnvelope[]): Promise<boolean> {
    return outbox.deleteWithEvents(users, userId, events);
  }

  /** What a deleted user leaves besides memberships: tokens and e-mail addresses. */
  async function removeCredentialsOf(userId: number): Promise<void> {
    await emailsReady();
    await tokens.deleteMany({ userId });
    await emails.deleteMany({ userId });
  }

  /** Another user already has the address, as primary or secondary (User.by_any_email). */
  async function emailTakenByOther(email: string, userId: number): Promise<boolean> {
    await emailsReady();
    const emailLower = email.toLowerCase();
    return (
      (await users.exists({ emailLower, _id: { $ne: userId } })) !== null ||
      (await emails.exists({ emailLower, userId: { $ne: userId } })) !== null
    );
  }

  /** After a membership write of the user that carried `revision` (identity/revisions.ts). */
  async function raiseAccessRevision(userId: number, revision: number): Promise<void> {
    // No `updatedAt` change: this is bookkeeping, not an edit of the user.
    await users.updateOne({ _id: userId }, { $max: { accessRevision: revision } }, { timestamps: false });
  }

  /** The token with this hash, through the identity cache. */
  async function tokenByHash(tokenHash: string): Promise<TokenDoc | null> {
    return cache.get(`token:${tokenHash}`, () => findOneRaw(tokens, { tokenHash }));
  }

  async function tokenExists(tokenHash: string): Promise<boolean> {
    return (await tokens.exists({ tokenHash })) !== null;
  }

  async function insertToken(record: TokenDoc): Promise<void> {
    await tokens.create(record);
  }

  /**
   * Throttled to one write per token in LAST_USE_INTERVAL_MS, so reads do not turn into writes; written with
   * other uses of the moment, past the models on purpose: last_used_at informs no access decision, so it
   * must not flush the identity cache (usage-writes.ts).
   */
  function recordTokenUse(token: TokenDoc): void {
    const now = Date.now();
    const last = Math.max(lastUseWritten.get(token._id) ?? 0, token.lastUsedAt?.getTime() ?? 0);
    if (now - last < LAST_USE_INTERVAL_MS) return;
    if (lastUseWritten.size > 100_000) lastUseWritten.clear();
    lastUseWritten.set(token._id, now);
    usage.tokenUsed(token._id, new Date(now));
  }

  return {
    findById,
    cachedById,
    findByUsername,
    byIds,
    idsMatching,
    idsNamed,
    list,
    seek,
    canCreateGroup,
    namespaceIdOf,
    insert,
    emailTaken,
    primaryEmailTaken,
    insertEmail,
    deleteEmail,
    pushEmail,
    listEmails,
    findEmail,
    pullEmail,
    tokenById,
    listTokens,
    revokeToken,
    raiseAccessRevision,
    update,
    remove,
    removeCredentialsOf,
    emailTakenByOther,
    transitionState,
    recordActivity,
    tokenByHash,
    tokenExists,
    insertToken,
    recordTokenUse,
    /** Writes the pending last_used_at and last_activity_on at once (when stopping, and in tests). */
    flushUsage: usage.flush,
  };
}
export type UsersStore = ReturnType<typeof createUsersStore>;
