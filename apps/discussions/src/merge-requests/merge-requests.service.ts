import { createHash } from 'node:crypto';
import { DOMAIN_EVENT_TYPES, type UserSummary } from '@gl/contracts';
import { HttpError, type EventOrigin } from '@gl/service-kit';
import type { DiffRefs, NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesStore } from '../noteables/noteables.store';
import {
  changesOf,
  type IssueInput,
  type IssueUpdate,
  type NoteableWrites,
} from '../noteables/noteable-writes';
import type { CommitsService } from '../commits/commits.service';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

const MERGE_REQUEST_EVENTS = {
  close: EVENTS.mergeRequestClosed,
  reopen: EVENTS.mergeRequestReopened,
  merge: EVENTS.mergeRequestMerged,
  update: EVENTS.mergeRequestUpdated,
};

export interface MergeRequestInput extends Pick<
  IssueInput,
  'title' | 'description' | 'labels' | 'milestone_id'
> {
  source_branch: string;
  target_branch: string;
  /** As the router filtered them (reviewers.ts). */
  reviewer_ids?: number[];
}

/** Branches never pushed still need SHAs for diff_refs: a stable stand-in per project and branch. */
export function placeholderSha(projectId: number, branch: string): string {
  return createHash('sha1').update(`branch-${projectId}-${branch}`).digest('hex');
}

export interface MergeRequestsServiceDeps {
  writes: NoteableWrites;
  store: Pick<NoteablesStore, 'openMergeRequest'>;
  commits: Pick<CommitsService, 'branchHead' | 'createCommit'>;
}

/** MergeRequests::CreateService, UpdateService and MergeService. */
export function createMergeRequestsService(deps: MergeRequestsServiceDeps) {
  const { writes, store, commits } = deps;
  const { branchHead, createCommit } = commits;

  async function createMergeRequest(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    input: MergeRequestInput,
  ): Promise<NoteableDoc> {
    if (input.source_branch === input.target_branch) {
      throw new HttpError(422, { message: ["You can't use same project/branch for source and target"] });
    }
    const open = await store.openMergeRequest(projectId, input.source_branch, input.target_branch);
    if (open) {
      throw new HttpError(409, {
        message: [`Another open merge request already exists for this source branch: !${open.iid}`],
      });
    }
    const base =
      (await branchHead(projectId, input.target_branch)) ?? placeholderSha(projectId, input.target_branch);
    const head =
      (await branchHead(projectId, input.source_branch)) ?? placeholderSha(projectId, input.source_branch);
    const diffRefs: DiffRefs = { baseSha: base, startSha: base, headSha: head };
    const doc = await writes.draftIssuable('MergeRequest', projectId, author, input, {
      sourceBranch: input.source_branch,
      targetBranch: input.target_branch,
      diffRefs,
      reviewerIds: input.reviewer_ids ?? [],
    });
    return writes.insertIssuable(origin, doc, EVENTS.mergeRequestOpened);
  }

  function updateMergeRequest(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    input: Omit<IssueUpdate, 'issue_type'>,
  ) {
    // Merge requests have no confidentiality: whatever the body says, it is not changed.
    return writes.update(
      origin,
      doc,
      actor,
      { ...changesOf(input), confidential: undefined, dueDate: undefined, weight: undefined },
      input.state_event,
      MERGE_REQUEST_EVENTS,
    );
  }

  /** Merging records GitLab's merge commit on the target branch (a push there), then marks the MR merged. */
  async function mergeMergeRequest(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    authorEmail: string,
    projectPath: string,
  ) {
    const projectId = doc.projectId!;
    const sourceHead = (await branchHead(projectId, doc.sourceBranch!)) ?? doc.diffRefs!.headSha;
    const merge = await createCommit(
      origin,
      projectId,
      actor,
      authorEmail,
      {
        branch: doc.targetBranch!,
        commit_message:
          `Merge branch '${doc.sourceBranch}' into '${doc.targetBranch}'\n\n${doc.title}\n\n` +
          `See merge request ${projectPath}!${doc.iid}`,
      },
      [sourceHead],
    );
    return writes.update(origin, doc, actor, { mergeCommitSha: merge._id }, 'merge', MERGE_REQUEST_EVENTS);
  }

  return { createMergeRequest, updateMergeRequest, mergeMergeRequest };
}
