import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { GHOST_USER, createCounters, type Migration } from '@gl/service-kit';
import type { NamespaceDoc, RouteDoc, UserDoc } from '../identity/identity.models';
import type { UserEmailDoc } from '../identity/user-emails.model';

/** Users::Internal.ghost's bio (app/models/users/internal.rb). */
export const GHOST_BIO =
  'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. ' +
  'This user cannot be removed.';

/**
 * Users::Internal's Gitlab::Utils::Uniquify: the name itself, then name1, name2… until one is free.
 * The ghost asks for `ghost` and `ghost%s@example.com`; a human holding either pushes it to the next one.
 */
async function firstFree(make: (n: string) => string, taken: (s: string) => Promise<boolean>) {
  for (let n = 0; ; n++) {
    const candidate = make(n === 0 ? '' : String(n));
    if (!(await taken(candidate))) return candidate;
  }
}

/**
 * GitLab's Ghost User (Users::Internal.ghost, user_type `ghost`) as a real record: services show a deleted
 * author as the kit's GHOST_USER, whose id is reserved here, and clients follow that author's links to
 * GET /users/:id. GitLab creates the account on first use; this step creates it once, with what
 * Users::Internal.unique_internal gives it: an active account, a personal namespace, a confirmed address, no
 * password and no token. No identity event is published: every service already knows the ghost by its
 * reserved id, and its copy of a user is never needed for it. Each write is keyed on the ghost, so a run
 * cut short by a crash is finished by the next one without a second namespace, route or address.
 */
export const ghostUser: Migration = {
  version: 3,
  name: 'the Ghost User (Users::Internal.ghost) at its reserved id',
  async up(connection: Connection, logger: Logger) {
    const users = connection.collection<UserDoc>('users');
    if (await users.findOne({ _id: GHOST_USER.id }, { projection: { _id: 1 } })) return;
    const namespaces = connection.collection<NamespaceDoc>('namespaces');
    const routes = connection.collection<RouteDoc>('routes');
    const emails = connection.collection<UserEmailDoc>('user_emails');
    const counters = createCounters(connection);
    /** A fresh id past every existing one: data written without the counters (imports, fixtures) may hold ids. */
    const nextId = async (collection: 'namespaces' | 'user_emails'): Promise<number> => {
      const [top] = await connection
        .collection<{ _id: number }>(collection)
        .find({}, { projection: { _id: 1 } })
        .sort({ _id: -1 })
        .limit(1)
        .toArray();
      if (typeof top?._id === 'number') await counters.ensureAtLeast(collection, top._id);
      return counters.next(collection);
    };
    const now = new Date();

    let namespace = await namespaces.findOne({ kind: 'user', ownerId: GHOST_USER.id });
    if (!namespace) {
      const id = await nextId('namespaces');
      const path = await firstFree(
        (n) => `${GHOST_USER.username}${n}`,
        async (candidate) => {
          const route = await routes.findOne({ _id: candidate.toLowerCase() });
          return route !== null || (await users.findOne({ usernameLower: candidate.toLowerCase() })) !== null;
        },
      );
      namespace = {
        _id: id,
        kind: 'user',
        name: path,
        path,
        fullPath: path,
        fullPathLower: path.toLowerCase(),
        fullName: GHOST_USER.name,
        parentId: null,
        ancestorIds: [],
        visibility: 'public',
        description: '',
        ownerId: GHOST_USER.id,
        createdAt: now,
        updatedAt: now,
      };
      await namespaces.insertOne(namespace);
    }
    // The route may already be ours (an earlier run stopped after it); someone else's is never taken.
    await routes.updateOne(
      { _id: namespace.fullPathLower },
      { $setOnInsert: { sourceType: 'namespace', sourceId: namespace._id } },
      { upsert: true },
    );

    let address = await emails.findOne({ userId: GHOST_USER.id });
    if (!address) {
      const email = await firstFree(
        (n) => `ghost${n}@example.com`,
        async (candidate) =>
          (await users.findOne({ emailLower: candidate })) !== null ||
          (await emails.findOne({ emailLower: candidate })) !== null,
      );
      address = {
        _id: await nextId('user_emails'),
        userId: GHOST_USER.id,
        email,
        emailLower: email,
        confirmedAt: now,
        createdAt: now,
      };
      await emails.insertOne(address);
    }

    const ghost: UserDoc = {
      _id: GHOST_USER.id,
      username: namespace.path,
      usernameLower: namespace.fullPathLower,
      name: GHOST_USER.name,
      email: address.email,
      emailLower: address.emailLower,
      emails: [],
      state: 'active',
      isAdmin: false,
      bio: GHOST_BIO,
      namespaceId: namespace._id,
      // unique_internal leaves these at a new account's defaults (the ghost never signs in to use them).
      canCreateGroup: true,
      projectsLimit: 100_000,
      passwordHash: null,
      createdAt: now,
      updatedAt: now,
    };
    await users.insertOne(ghost);
    if (namespace.path !== GHOST_USER.username) {
      logger.warn(
        { username: namespace.path },
        'migration: username ghost is taken; the Ghost User has another',
      );
    }
    logger.info({ id: GHOST_USER.id, namespaceId: namespace._id }, 'migration: Ghost User created');
  },
};
