import type { FilterQuery } from 'mongoose';
import { isDuplicateKeyError, type PageRequest, findPage } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import type { ProjectDoc, StarDoc, UserDoc } from './identity.models';
import { searchPattern } from './queries';

/**
 * Stars: one document per (user, project), keyed so a second star is a duplicate. `star_count` is set
 * from a count after each change rather than incremented, so a crash between the two writes heals on the
 * next star or unstar instead of drifting.
 */
export function createStarsService(deps: IdentityDeps) {
  const { models } = deps;
  const starId = (userId: number, projectId: number): string => `${userId}:${projectId}`;

  async function recount(project: ProjectDoc): Promise<ProjectDoc> {
    const starCount = await models.stars.countDocuments({ projectId: project._id });
    await models.projects.updateOne({ _id: project._id }, { $set: { starCount } });
    return { ...project, starCount };
  }

  /** Resolves null when the user had already starred the project (GitLab answers 304). */
  async function star(project: ProjectDoc, userId: number): Promise<ProjectDoc | null> {
    try {
      await models.stars.create({
        _id: starId(userId, project._id),
        userId,
        projectId: project._id,
        createdAt: new Date(),
      });
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
    return recount(project);
  }

  /** Resolves null when the project was not starred (304). */
  async function unstar(project: ProjectDoc, userId: number): Promise<ProjectDoc | null> {
    const { deletedCount } = await models.stars.deleteOne({ _id: starId(userId, project._id) });
    if (deletedCount === 0) return null;
    return recount(project);
  }

  /** GET /projects/:id/starrers: newest stars first, optionally searching the users' names. */
  async function starrers(
    project: ProjectDoc,
    search: string | undefined,
    page: PageRequest,
  ): Promise<{ total: number; rows: { star: StarDoc; user: UserDoc }[] }> {
    const filter: FilterQuery<StarDoc> = { projectId: project._id };
    if (search) {
      const pattern = searchPattern(search);
      const matching = await models.users
        .find({ $or: [{ name: pattern }, { username: pattern }] })
        .select({ _id: 1 })
        .lean();
      filter.userId = { $in: matching.map((u) => u._id) };
    }
    const { total, docs: stars } = await findPage(models.stars, filter, { createdAt: -1, _id: 1 }, page);
    const users = new Map(
      (await models.users.find({ _id: { $in: stars.map((s) => s.userId) } }).lean()).map((u) => [u._id, u]),
    );
    return {
      total,
      rows: stars.flatMap((star) => {
        const user = users.get(star.userId);
        return user ? [{ star, user }] : [];
      }),
    };
  }

  return { star, unstar, starrers };
}
export type StarsService = ReturnType<typeof createStarsService>;
