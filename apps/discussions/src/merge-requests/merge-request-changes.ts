import type { CommitDoc } from '../commits/commit.model';
import type { CommitsService } from '../commits/commits.service';
import type { NoteableDoc } from '../noteables/noteable.model';
import { contentsAtBase, mergeRequestDiffs, pathsAtBase, type FileDiff } from './merge-request-diffs';

/**
 * The most commits a merge request shows. GitLab keeps up to MergeRequestDiff::COMMITS_SAFE_SIZE in a
 * diff; here each is a document read in one query, so the bound is lower.
 */
export const MAX_COMMITS = 5000;
/** Earlier commits read for what the changed files held at the base. */
const MAX_EARLIER = 1000;

/**
 * A merge request's commits and changes (MergeRequestDiff#commits and #diffs), from what the commits API
 * recorded: the commits of the source branch reached from its head along first parents, and the files
 * they changed, diffed against what earlier commits of other branches left in them.
 */
export function createMergeRequestChanges(
  commits: Pick<CommitsService, 'branchHead' | 'findCommit' | 'branchCommits' | 'commitsTouching'>,
) {
  /** The source head the merge request shows: the one it merged, or the branch's head now. */
  async function headOf(mr: NoteableDoc): Promise<string | null> {
    const projectId = mr.projectId!;
    if (mr.mergeCommitSha) {
      const merge = await commits.findCommit(projectId, mr.mergeCommitSha);
      return merge?.parentIds[1] ?? mr.diffRefs?.headSha ?? null;
    }
    return (await commits.branchHead(projectId, mr.sourceBranch!)) ?? mr.diffRefs?.headSha ?? null;
  }

  /** The merge request's commits, newest first (GET …/merge_requests/:iid/commits). */
  async function commitsOf(mr: NoteableDoc): Promise<CommitDoc[]> {
    const head = await headOf(mr);
    if (head === null) return [];
    const onBranch = await commits.branchCommits(mr.projectId!, mr.sourceBranch!, MAX_COMMITS);
    const byId = new Map(onBranch.map((commit) => [commit._id, commit]));
    const found: CommitDoc[] = [];
    for (let at = byId.get(head); at && found.length < MAX_COMMITS; at = byId.get(at.parentIds[0] ?? '')) {
      found.push(at);
    }
    return found;
  }

  /** The merge request's changed files (GET …/changes and …/diffs). */
  async function diffsOf(mr: NoteableDoc): Promise<{ diffs: FileDiff[]; overflow: boolean }> {
    const oldestFirst = (await commitsOf(mr)).reverse();
    if (oldestFirst.length === 0) return { diffs: [], overflow: false };
    const paths = pathsAtBase(oldestFirst);
    const earlier = await commits.commitsTouching(
      mr.projectId!,
      paths,
      oldestFirst[0]!.createdAt,
      MAX_EARLIER,
    );
    const outside = earlier.filter((commit) => commit.branch !== mr.sourceBranch);
    return mergeRequestDiffs(oldestFirst, contentsAtBase(paths, outside));
  }

  return { mergeRequestCommits: commitsOf, mergeRequestDiffs: diffsOf };
}
