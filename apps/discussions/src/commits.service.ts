import { createHash, randomBytes } from 'node:crypto';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type BranchPushedData,
  type UserSummary,
} from '@gl/contracts';
import {
  createEvent,
  excerpt,
  isDuplicateKeyError,
  pushEvents,
  withEvents,
  type EventOrigin,
} from '@gl/service-kit';
import type { CommitDoc } from './discussions.models';
import { actorOf } from './discussions.access';
import type { NotesDeps } from './notes.service';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

/** Commits and branch heads of the projects' repositories (what the commits API writes and reads). */
export function createCommitsService(deps: Pick<NotesDeps, 'models' | 'outbox'>) {
  const { models, outbox } = deps;

  async function branchHead(projectId: number, branch: string): Promise<string | null> {
    const found = await models.branches.findById(`${projectId}:${branch}`).lean();
    return found?.headSha ?? null;
  }

  async function createCommit(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    authorEmail: string,
    input: { branch: string; commit_message: string; start_branch?: string; start_sha?: string },
    extraParents: string[] = [],
  ): Promise<CommitDoc> {
    const branchId = `${projectId}:${input.branch}`;
    const existing = await models.branches.findById(branchId).lean();
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
    };
    await models.commits.create(commit);
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
    let created = false;
    if (!existing) {
      try {
        await models.branches.create(
          withEvents({ _id: branchId, projectId, name: input.branch, headSha: sha, updatedAt: now }, [
            push('created', null),
          ]),
        );
        created = true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    if (!created) {
      const previous = existing?.headSha ?? (await branchHead(projectId, input.branch));
      await models.branches.updateOne(
        { _id: branchId },
        pushEvents({ $set: { headSha: sha, updatedAt: now } }, [push('pushed', previous)]),
      );
    }
    outbox.kick();
    return commit;
  }

  /** `project.commit(ref)`: a full or abbreviated SHA, or a branch name (its head). */
  async function findCommit(projectId: number, ref: string): Promise<CommitDoc | null> {
    if (/^[0-9a-fA-F]{4,40}$/.test(ref)) {
      const lower = ref.toLowerCase();
      const found =
        lower.length === 40
          ? await models.commits.findOne({ _id: lower, projectId }).lean<CommitDoc>()
          : await models.commits.findOne({ projectId, _id: { $regex: `^${lower}` } }).lean<CommitDoc>();
      if (found) return found;
    }
    const head = await branchHead(projectId, ref);
    return head ? models.commits.findOne({ _id: head, projectId }).lean<CommitDoc>() : null;
  }

  async function listCommits(projectId: number, refName: string | undefined, skip: number, limit: number) {
    const filter: Record<string, unknown> = { projectId };
    if (refName) filter.branch = refName;
    const [items, total] = await Promise.all([
      models.commits.find(filter).sort({ createdAt: -1, _id: 1 }).skip(skip).limit(limit).lean<CommitDoc[]>(),
      models.commits.countDocuments(filter),
    ]);
    return { items, total };
  }

  return { branchHead, createCommit, findCommit, listCommits };
}

export type CommitsService = ReturnType<typeof createCommitsService>;
