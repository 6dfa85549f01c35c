import type { Model } from 'mongoose';
import type { UserDoc } from './events.models';

/** Reads of the user projection (the identity consumer writes it). */
export function createUsersStore(users: Model<UserDoc>) {
  return {
    /** `:user_id` of /users/:user_id/events: a numeric id, else a username (case-insensitive). */
    async find(idOrUsername: string): Promise<UserDoc | null> {
      if (/^\d+$/.test(idOrUsername)) return users.findOne({ _id: Number(idOrUsername) }).lean<UserDoc>();
      return users.findOne({ usernameLower: idOrUsername.toLowerCase() }).lean<UserDoc>();
    },
    async byIds(ids: number[]): Promise<UserDoc[]> {
      return users.find({ _id: { $in: ids } }).lean<UserDoc[]>();
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
