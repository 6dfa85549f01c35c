import { createHash, randomBytes } from 'node:crypto';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type BranchPushedData,
  type UserSummary,
} from '@gl/contracts';
import { createEvent, excerpt, type EventOrigin } from '@gl/service-kit';
import type { CommitDoc } from './commit.model';
import { actorOf } from '../common/access';
import { createCommitsStore } from './commits.store';
import { commitFilesOf, type CommitActionInput } from './commit-files';
import type { DiscussionsDeps } from '../discussions.models';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

/** Commits and branch heads of the projects' repositories (what the commits API writes and reads). */
export function createCommitsService(deps: Pick<DiscussionsDeps, 'models' | 'outbox'>) {
  const store = createCommitsStore(deps);

  async function branchHead(projectId: number, branch: string): Promise<string | null> {
    return (await store.branch(projectId, branch))?.headSha ?? null;
  }

  async function createCommit(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    authorEmail: string,
    input: {
      branch: string;
      commit_message: string;
      start_branch?: string;
      start_sha?: string;
      actions?: CommitActionInput[];
    },
    extraParents: string[] = [],
  ): Promise<CommitDoc> {
    const existing = await store.branch(projectId, input.branch);
    const parent =
      existing?.headSha ??
      input.start_sha ??
      (input.start_branch ? await branchHead(projectId, input.start_branch) : null);
    const now = new Date();
    const sha = createHash('sha1')
      .update(`commit-${projectId}-${input.branch}-${now.getTime()}-${randomBytes(16).toString('hex')}`)
      .digest('hex');
    const title = input.commit_message.split('\n')[0]!.trim();
    const commit: CommitDoc = {
      _id: sha,
      projectId,
      branch: input.branch,
      title,
      message: input.commit_message,
      parentIds: [...(parent ? [parent] : []), ...extraParents],
      authorName: author.name,
      authorEmail,
      createdAt: now,
      files: commitFilesOf(input.actions),
    };
    await store.insertCommit(commit);
    const push = (action: 'created' | 'pushed', from: string | null) =>
      createEvent(origin, {
        type: EVENTS.branchPushed,
        actor: actorOf(author),
        projectId,
        data: {
          ref: input.branch,
          refType: 'branch',
          action,
          commitCount: 1,
          commitFrom: from,
          commitTo: sha,
          commitTitle: excerpt(title, EVENT_TEXT_LIMITS.commitTitle),
        } satisfies BranchPushedData,
      });
    const branch = { projectId, name: input.branch, headSha: sha, updatedAt: now };
    const created = !existing && (await store.createBranch(branch, [push('created', null)]));
    if (!created) {
      const previous = existing?.headSha ?? (await branchHead(projectId, input.branch));
      await store.moveBranch(projectId, input.branch, { headSha: sha, updatedAt: now }, [
        push('pushed', previous),
      ]);
    }
    return commit;
  }

  /** `project.commit(ref)`: a full or abbreviated SHA, or a branch name (its head). */
  async function findCommit(projectId: number, ref: string): Promise<CommitDoc | null> {
    if (/^[0-9a-fA-F]{4,40}$/.test(ref)) {
      const found = await store.findBySha(projectId, ref.toLowerCase());
      if (found) return found;
    }
    const head = await branchHead(projectId, ref);
    return head ? store.findBySha(projectId, head) : null;
  }

  async function listCommits(projectId: number, refName: string | undefined, skip: number, limit: number) {
    return store.page(projectId, refName, skip, limit);
  }

  return {
    branchHead,
    createCommit,
    findCommit,
    listCommits,
    branchCommits: (projectId: number, branch: string, limit: number) =>
      store.ofBranch(projectId, branch, limit),
    commitsTouching: (projectId: number, paths: string[], before: Date, limit: number) =>
      store.touching(projectId, paths, before, limit),
  };
}

export type CommitsService = ReturnType<typeof createCommitsService>;
