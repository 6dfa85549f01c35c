import type { Model } from 'mongoose';
import type { UserDoc } from './boards.models';

/** Reads of the users projection (users.projection.ts writes it). */
export class UsersStore {
  constructor(private readonly users: Model<UserDoc>) {}

  async exists(id: number): Promise<boolean> {
    return (await this.users.exists({ _id: id })) !== null;
  }

  async byIds(ids: number[]): Promise<UserDoc[]> {
    return ids.length ? this.users.find({ _id: { $in: ids } }).lean<UserDoc[]>() : [];
  }
}
