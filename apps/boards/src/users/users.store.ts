import type { Model } from 'mongoose';
import type { UserDoc } from '../boards.models';

/** Reads of the users projection (users.projection.ts writes it). */
export function createUsersStore(users: Model<UserDoc>) {
  /** A user who can be scoped to or listed: a deleted one (only the Ghost User stands for them) cannot. */
  async function exists(id: number): Promise<boolean> {
    return (await users.exists({ _id: id, destroyed: { $ne: true } })) !== null;
  }

  async function byIds(ids: number[]): Promise<UserDoc[]> {
    return ids.length ? users.find({ _id: { $in: ids } }).lean<UserDoc[]>() : [];
  }

  return { exists, byIds };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
