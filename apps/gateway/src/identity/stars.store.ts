import type { Model } from 'mongoose';
import { findPage, insertUnique, type PageRequest } from '@gl/service-kit';
import type { StarDoc } from './identity.models';

/** Stars: one document per (user, project), keyed `user:project` so a second star is a duplicate. */
export function createStarsStore(stars: Model<StarDoc>) {
  const starId = (userId: number, projectId: number): string => `${userId}:${projectId}`;

  /** False when the user had already starred the project. */
  async function add(userId: number, projectId: number): Promise<boolean> {
    return insertUnique(stars, { _id: starId(userId, projectId), userId, projectId, createdAt: new Date() });
  }

  /** False when the project was not starred. */
  async function remove(userId: number, projectId: number): Promise<boolean> {
    const { deletedCount } = await stars.deleteOne({ _id: starId(userId, projectId) });
    return deletedCount > 0;
  }

  async function countFor(projectId: number): Promise<number> {
    return stars.countDocuments({ projectId });
  }

  async function projectIdsOf(userId: number): Promise<number[]> {
    return (await stars.find({ userId }).select({ projectId: 1 }).lean()).map((s) => s.projectId);
  }

  /** A project's stars, newest first, optionally only those of the given users. */
  async function pageOf(
    projectId: number,
    userIds: number[] | undefined,
    page: PageRequest,
  ): Promise<{ total: number; docs: StarDoc[] }> {
    const filter = userIds === undefined ? { projectId } : { projectId, userId: { $in: userIds } };
    return findPage(stars, filter, { createdAt: -1, _id: 1 }, page);
  }

  async function removeAllOf(projectId: number): Promise<void> {
    await stars.deleteMany({ projectId });
  }

  return { add, remove, countFor, projectIdsOf, pageOf, removeAllOf };
}
