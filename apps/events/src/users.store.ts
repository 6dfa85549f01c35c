import type { Model } from 'mongoose';
import { bulkUpdate } from '@gl/service-kit';
import type { UserDoc } from './events.models';

/** An author as an activity event names them. */
export interface NamedAuthor {
  id: number;
  username: string;
  name: string | null;
}

/** The user projection: read by the API; the identity consumer writes it, the recorder adds unknown authors. */
export function createUsersStore(users: Model<UserDoc>) {
  return {
    /**
     * `:user_id` of /users/:user_id/events: a numeric id, else a username (case-insensitive); a deleted
     * user is not found (their username may already belong to someone else).
     */
    async find(idOrUsername: string): Promise<UserDoc | null> {
      const live = { destroyed: { $ne: true } };
      if (/^\d+$/.test(idOrUsername))
        return users.findOne({ _id: Number(idOrUsername), ...live }).lean<UserDoc>();
      return users.findOne({ usernameLower: idOrUsername.toLowerCase(), ...live }).lean<UserDoc>();
    },
    async byIds(ids: number[]): Promise<UserDoc[]> {
      return users.find({ _id: { $in: ids } }).lean<UserDoc[]>();
    },
    /** Which of these users were deleted (one read of their copies by id). */
    async destroyedAmong(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const found = await users
        .find({ _id: { $in: [...new Set(ids)] }, destroyed: true })
        .select({ _id: 1 })
        .lean<Pick<UserDoc, '_id'>[]>();
      return new Set(found.map((user) => user._id));
    },
    /**
     * Authors the identity events never announced (the seeded root) still resolve by id and username; a
     * user the projection has is left as it is.
     */
    async addUnknownAuthors(authors: NamedAuthor[]): Promise<void> {
      if (authors.length === 0) return;
      await bulkUpdate(
        users,
        authors.map((author) => ({
          updateOne: {
            filter: { _id: author.id },
            update: {
              $setOnInsert: {
                username: author.username,
                usernameLower: author.username.toLowerCase(),
                name: author.name ?? author.username,
                state: 'active',
              },
            },
            upsert: true,
          },
        })),
      );
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
