import type { EventActor } from '@gl/contracts';
import {
  ConflictError,
  ModelError,
  NotFoundError,
  type EventOrigin,
  type PageRequest,
} from '@gl/service-kit';
import { generateToken, hashToken } from '../auth/tokens';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, userEvent } from './identity.events';
import type { NamespaceDoc, TokenDoc, UserDoc } from './identity.models';
import { hashPassword } from './passwords';
import type { UserEmailDoc } from './user-emails.model';
import { EMAIL_FORMAT, userAttributeErrors } from './user-rules';

export type { TokenDoc, UserDoc, UserEmailDoc };
import { moderate as decide, type Moderation, type ModerationAction } from './user-states';
import { assertModeratable } from './users.internal';
import type { UserFilters } from './users.store';

export type { UserFilters } from './users.store';

export interface NewUser {
  username: string;
  name: string;
  email: string;
  password?: string;
  isAdmin?: boolean;
  canCreateGroup?: boolean;
  projectsLimit?: number;
  bio?: string;
  /** Fixed id, for the root administrator (id 1). */
  id?: number;
}

export interface NewToken {
  name: string;
  scopes: string[];
  expiresAt: string | null;
}

/** GitLab's User validations that the API can trip (render_validation_error! → 400 {"message":{...}}). */
function validateNewUser(input: NewUser): void {
  const errors = userAttributeErrors(input);
  if (errors.has()) throw ModelError.fields(errors.fields);
}

export function createUsersService(deps: IdentityDeps) {
  const { stores, counters } = deps;
  const { users, routes } = stores;

  async function claimEmail(userId: number, email: string, confirmed: boolean): Promise<UserEmailDoc | null> {
    const record: UserEmailDoc = {
      _id: await counters.next('user_emails'),
      userId,
      email,
      emailLower: email.toLowerCase(),
      confirmedAt: confirmed ? new Date() : null,
      createdAt: new Date(),
    };
    return (await users.insertEmail(record)) ? record : null;
  }

  /**
   * A user and their personal namespace. GitLab answers a taken e-mail or username with 409 before it
   * looks at anything else. The username is claimed in `routes` and the address in `user_emails` (both
   * unique), so racing requests cannot both win; a failed insert releases what was claimed.
   */
  async function create(input: NewUser, origin: EventOrigin, actor: EventActor): Promise<UserDoc> {
    const usernameLower = input.username.toLowerCase();
    const emailLower = input.email.toLowerCase();
    if (await users.emailTaken(emailLower)) throw new ConflictError('Email has already been taken');
    if (await routes.taken(usernameLower)) throw new ConflictError('Username has already been taken');
    validateNewUser(input);

    const namespaceId = await counters.next('namespaces');
    const route = { sourceType: 'namespace' as const, sourceId: namespaceId };
    if (!(await routes.claim(input.username, route))) {
      throw new ConflictError('Username has already been taken');
    }
    let emailRecord: UserEmailDoc | null = null;
    try {
      const id = input.id ?? (await counters.next('users'));
      emailRecord = await claimEmail(id, input.email, true);
      if (!emailRecord) throw new ConflictError('Email has already been taken');
      const now = new Date();
      const user: UserDoc = {
        _id: id,
        username: input.username,
        usernameLower,
        name: input.name,
        email: input.email,
        emailLower,
        emails: [],
        state: 'active',
        isAdmin: input.isAdmin ?? false,
        bio: input.bio ?? '',
        namespaceId,
        canCreateGroup: input.canCreateGroup ?? true,
        projectsLimit: input.projectsLimit ?? 100000,
        passwordHash: input.password ? await hashPassword(input.password) : null,
        createdAt: now,
        updatedAt: now,
      };
      const personal: Omit<NamespaceDoc, 'createdAt' | 'updatedAt'> = {
        _id: namespaceId,
        kind: 'user',
        name: input.username,
        path: input.username,
        fullPath: input.username,
        fullPathLower: usernameLower,
        fullName: input.name,
        parentId: null,
        ancestorIds: [],
        visibility: 'public',
        description: '',
        ownerId: id,
      };
      const event = userEvent(origin, EVENT_TYPES.identity.userCreated, actor, user);
      // A duplicate key on either insert is the address (or path) taken by a racing request.
      if (!(await stores.namespaces.insert(personal)) || !(await users.insert(user, [event]))) {
        throw new ConflictError('Email has already been taken');
      }
      deps.outbox.kick();
      return user;
    } catch (err) {
      await routes.release(input.username, route);
      await stores.namespaces.deleteById(namespaceId);
      if (emailRecord) await users.deleteEmail(emailRecord._id);
      throw err;
    }
  }

  async function findById(id: number): Promise<UserDoc | null> {
    return users.findById(id);
  }

  /** GitLab's UsersFinder: exact username, or a search over name, username and exact e-mail; newest first. */
  async function list(
    filters: UserFilters,
    page: PageRequest,
    sort?: Record<string, 1 | -1>,
  ): Promise<{ total: number; users: UserDoc[] }> {
    const { total, docs } = await users.list(filters, page, sort);
    return { total, users: docs };
  }

  /** The user's highest access level anywhere (UserDetailsWithAdmin#highest_role). */
  async function highestRole(userId: number): Promise<number> {
    return stores.members.topLevelOf(userId);
  }

  /** Issues a personal access token; the plain token is returned once and only its hash is kept. */
  async function createToken(userId: number, input: NewToken): Promise<{ record: TokenDoc; token: string }> {
    const token = generateToken();
    const record: TokenDoc = {
      _id: await counters.next('personal_access_tokens'),
      userId,
      name: input.name,
      tokenHash: hashToken(token),
      scopes: input.scopes,
      expiresAt: input.expiresAt,
      revoked: false,
      createdAt: new Date(),
      lastUsedAt: null,
    };
    await users.insertToken(record);
    return { record, token };
  }

  /** Makes a given plain token valid for the user (GITLAB_ROOT_TOKEN); idempotent across restarts. */
  async function ensureToken(userId: number, token: string, input: NewToken): Promise<void> {
    const tokenHash = hashToken(token);
    if (await users.tokenExists(tokenHash)) return;
    await users.insertToken({
      _id: await counters.next('personal_access_tokens'),
      userId,
      name: input.name,
      tokenHash,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
      revoked: false,
      createdAt: new Date(),
      lastUsedAt: null,
    });
  }

  /**
   * Adds a secondary address (POST /users/:id/emails). The user document's `emails` and its
   * `user.updated` event change in one write, so projections (notification e-mail) follow.
   */
  async function addEmail(
    user: UserDoc,
    email: string,
    confirmed: boolean,
    origin: EventOrigin,
    actor: EventActor,
  ): Promise<UserEmailDoc> {
    if (!EMAIL_FORMAT.test(email)) throw ModelError.fields({ email: ['is invalid'] });
    if (await users.primaryEmailTaken(email)) {
      throw ModelError.fields({ email: ['has already been taken'] });
    }
    const record = await claimEmail(user._id, email, confirmed);
    if (!record) throw ModelError.fields({ email: ['has already been taken'] });
    const updated: UserDoc = { ...user, emails: [...user.emails, email], updatedAt: new Date() };
    await users.pushEmail(user._id, email, updated.updatedAt, [
      userEvent(origin, EVENT_TYPES.identity.userUpdated, actor, updated),
    ]);
    deps.outbox.kick();
    return record;
  }

  async function listEmails(
    userId: number,
    page: PageRequest,
  ): Promise<{ total: number; emails: UserEmailDoc[] }> {
    const { total, docs } = await users.listEmails(userId, page);
    return { total, emails: docs };
  }

  /**
   * Block, unblock, ban, unban, deactivate or activate (lib/api/users.rb): an internal user is refused where
   * GitLab's services refuse it, the state machine decides, the write is a compare-and-set on the state it
   * leaves, and `user.updated` carries the new state to every projection. The gateway's identity cache is
   * flushed by the write, so the user's tokens stop (or work again) on their next request.
   */
  async function moderate(
    user: UserDoc,
    action: ModerationAction,
    callerId: number,
    origin: EventOrigin,
    actor: EventActor,
  ): Promise<Moderation> {
    assertModeratable(action, user);
    const outcome = decide(action, user, callerId);
    if (outcome.to === undefined) return outcome;
    const updated: UserDoc = { ...user, state: outcome.to, updatedAt: new Date() };
    const event = userEvent(origin, EVENT_TYPES.identity.userUpdated, actor, updated);
    if (!(await users.transitionState(user._id, user.state, outcome.to, updated.updatedAt, [event]))) {
      // Another request moved the user first: decide again on the state it left.
      const current = await users.findById(user._id);
      if (!current) throw new NotFoundError('User');
      return moderate(current, action, callerId, origin, actor);
    }
    deps.outbox.kick();
    return outcome;
  }

  return { create, findById, list, highestRole, createToken, ensureToken, addEmail, listEmails, moderate };
}
export type UsersService = ReturnType<typeof createUsersService>;
