import { randomBytes, scryptSync } from 'node:crypto';
import { ConflictError, isDuplicateKeyError, withEvents, type EventOrigin } from '@gl/service-kit';
import type { EventActor } from '@gl/contracts';
import { generateToken, hashToken } from '../auth/tokens';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, userEvent } from './identity.events';
import type { TokenDoc, UserDoc } from './identity.models';

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

function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 32).toString('hex')}`;
}

export function createUsersService(deps: IdentityDeps) {
  const { models, counters } = deps;

  /**
   * A user and their personal namespace. The path is claimed first in `routes` (unique), so a user and a
   * group can never share a path, and a failed insert releases it.
   */
  async function create(input: NewUser, origin: EventOrigin, actor: EventActor): Promise<UserDoc> {
    const usernameLower = input.username.toLowerCase();
    const emailLower = input.email.toLowerCase();
    if (await models.users.exists({ emailLower })) throw new ConflictError('Email has already been taken');
    const namespaceId = await counters.next('namespaces');
    try {
      await models.routes.create({ _id: usernameLower, sourceType: 'namespace', sourceId: namespaceId });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new ConflictError('Username has already been taken');
      throw err;
    }
    try {
      const id = input.id ?? (await counters.next('users'));
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
        passwordHash: input.password ? hashPassword(input.password) : null,
        createdAt: now,
        updatedAt: now,
      };
      await models.namespaces.create({
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
      });
      await models.users.create(withEvents(user, [userEvent(origin, EVENT_TYPES.identity.userCreated, actor, user)]));
      deps.outbox.kick();
      return user;
    } catch (err) {
      await models.routes.deleteOne({ _id: usernameLower });
      await models.namespaces.deleteOne({ _id: namespaceId });
      if (isDuplicateKeyError(err)) throw new ConflictError('Email has already been taken');
      throw err;
    }
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
    await models.tokens.create(record);
    return { record, token };
  }

  /** Makes a given plain token valid for the user (GITLAB_ROOT_TOKEN); idempotent across restarts. */
  async function ensureToken(userId: number, token: string, input: NewToken): Promise<void> {
    const tokenHash = hashToken(token);
    if (await models.tokens.exists({ tokenHash })) return;
    await models.tokens.create({
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

  return { create, createToken, ensureToken };
}
export type UsersService = ReturnType<typeof createUsersService>;
