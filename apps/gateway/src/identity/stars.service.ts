import type { PageRequest } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import type { ProjectDoc, StarDoc, UserDoc } from './identity.models';

export type { ProjectDoc };

/**
 * Stars: one per (user, project), a second star being a duplicate (stars.store.ts). `star_count` is set
 * from a count after each change rather than incremented, so a crash between the two writes heals on the
 * next star or unstar instead of drifting.
 */
export function createStarsService(deps: IdentityDeps) {
  const { stores } = deps;

  async function recount(project: ProjectDoc): Promise<ProjectDoc> {
    const starCount = await stores.stars.countFor(project._id);
    await stores.projects.setStarCount(project._id, starCount);
    return { ...project, starCount };
  }

  /** Resolves null when the user had already starred the project (GitLab answers 304). */
  async function star(project: ProjectDoc, userId: number): Promise<ProjectDoc | null> {
    if (!(await stores.stars.add(userId, project._id))) return null;
    return recount(project);
  }

  /** Resolves null when the project was not starred (304). */
  async function unstar(project: ProjectDoc, userId: number): Promise<ProjectDoc | null> {
    if (!(await stores.stars.remove(userId, project._id))) return null;
    return recount(project);
  }

  /** GET /projects/:id/starrers: newest stars first, optionally searching the users' names. */
  async function starrers(
    project: ProjectDoc,
    search: string | undefined,
    page: PageRequest,
  ): Promise<{ total: number; rows: { star: StarDoc; user: UserDoc }[] }> {
    const userIds = search ? await stores.users.idsNamed(search) : undefined;
    const { total, docs: stars } = await stores.stars.pageOf(project._id, userIds, page);
    const users = new Map((await stores.users.byIds(stars.map((s) => s.userId))).map((u) => [u._id, u]));
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
