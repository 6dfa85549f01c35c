import type { Request } from 'express';
import { ACCESS_LEVELS } from '@gl/contracts';
import { accessLevelOf, isHigherTier } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * MergeRequests::BaseService#filter_reviewers: `reviewer_ids` count only for who may administer merge
 * requests (Reporter and up); one reviewer unless the tier allows several; only users who may read the
 * merge request (known to the identity copy, and members with Reporter and up of a private project);
 * `[]` or `[0]` removes them; ids of which none is kept change nothing (undefined).
 */
export function createReviewerFilter(models: Pick<DiscussionsModels, 'users' | 'members'>) {
  async function readers(ids: number[], req: Request): Promise<Set<number>> {
    const ns = req.ctx.namespace!;
    const known = await models.users
      .find({ _id: { $in: ids }, destroyed: { $ne: true } }, { _id: 1 })
      .lean<{ _id: number }[]>();
    const users = known.map((u) => u._id);
    if (ns.visibility !== 'private' || users.length === 0) return new Set(users);
    // A private project's merge requests: its members and its ancestor groups' (unexpired), Reporter and up.
    const today = todayUtc();
    const memberships = await models.members.find({ userId: { $in: users } }).lean();
    return new Set(
      memberships
        .filter(
          (m) =>
            (m.expiresAt === null || m.expiresAt > today) &&
            m.accessLevel >= ACCESS_LEVELS.reporter &&
            (m.sourceType === 'project' ? m.sourceId === ns.id : ns.ancestorGroupIds.includes(m.sourceId)),
        )
        .map((m) => m.userId),
    );
  }

  return async function reviewerIds(req: Request, given: number[] | undefined) {
    if (given === undefined) return undefined;
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.reporter) return undefined;
    if (given.length === 0 || (given.length === 1 && given[0] === 0)) return [];
    // allows_multiple_reviewers?: a higher-tier feature.
    const asked = isHigherTier(req.ctx) ? [...new Set(given)] : given.slice(0, 1);
    const readable = await readers(asked, req);
    const kept = asked.filter((id) => readable.has(id));
    return kept.length > 0 ? kept : undefined;
  };
}
