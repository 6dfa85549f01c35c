import type { EventEnvelope } from '@gl/contracts';
import { findPage, isDuplicateKeyError, pushEvents, withEvents } from '@gl/service-kit';
import type { BranchDoc, CommitDoc } from './commit.model';
import type { DiscussionsDeps } from '../discussions.models';

/** Branches are keyed `<projectId>:<name>`: a branch is read and written by `_id`. */
const branchId = (projectId: number, name: string): string => `${projectId}:${name}`;

/** Every read and write of `commits` and `branches`. */
export function createCommitsStore(deps: Pick<DiscussionsDeps, 'models' | 'outbox'>) {
  const { models, outbox } = deps;

  return {
    async branch(projectId: number, name: string): Promise<BranchDoc | null> {
      return models.branches.findById(branchId(projectId, name)).lean<BranchDoc>();
    },

    async insertCommit(commit: CommitDoc): Promise<void> {
      await models.commits.create(commit);
    },

    /** The branch's first push (waking the outbox relay); false when another push created it first. */
    async createBranch(branch: Omit<BranchDoc, '_id'>, events: EventEnvelope[]): Promise<boolean> {
      try {
        await models.branches.create(
          withEvents({ _id: branchId(branch.projectId, branch.name), ...branch }, events),
        );
        outbox.kick(models.branches);
        return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        return false;
      }
    },

    async moveBranch(
      projectId: number,
      name: string,
      set: Pick<BranchDoc, 'headSha' | 'updatedAt'>,
      events: EventEnvelope[],
    ): Promise<void> {
      await models.branches.updateOne({ _id: branchId(projectId, name) }, pushEvents({ $set: set }, events));
      outbox.kick(models.branches);
    },

    /** A commit by its full SHA, or the first one whose SHA starts with an abbreviated one (lower case). */
    async findBySha(projectId: number, sha: string): Promise<CommitDoc | null> {
      return sha.length === 40
        ? models.commits.findOne({ _id: sha, projectId }).lean<CommitDoc>()
        : models.commits.findOne({ projectId, _id: { $regex: `^${sha}` } }).lean<CommitDoc>();
    },

    /** Up to `limit` commits of a branch, newest first (the commits a merge request's walk starts in). */
    async ofBranch(projectId: number, branch: string, limit: number): Promise<CommitDoc[]> {
      return models.commits
        .find({ projectId, branch })
        .sort({ createdAt: -1, _id: 1 })
        .limit(limit)
        .lean<CommitDoc[]>();
    },

    /** The newest commits before `before` that changed any of these paths, newest first. */
    async touching(projectId: number, paths: string[], before: Date, limit: number): Promise<CommitDoc[]> {
      if (paths.length === 0) return [];
      return models.commits
        .find({ projectId, createdAt: { $lt: before }, 'files.path': { $in: paths } })
        .sort({ createdAt: -1, _id: 1 })
        .limit(limit)
        .lean<CommitDoc[]>();
    },

    /** A page of a project's commits (of one branch with `branch`), newest first. */
    async page(projectId: number, branch: string | undefined, skip: number, limit: number) {
      const filter: Record<string, unknown> = { projectId };
      if (branch) filter.branch = branch;
      const { docs, total } = await findPage(
        models.commits,
        filter,
        { createdAt: -1, _id: 1 },
        { skip, perPage: limit },
      );
      return { items: docs, total };
    },
  };
}
