import { structuredPatch } from 'diff';
import type { CommitDoc, CommitFile } from '../commits/commit.model';

/** lib/api/entities/diff.rb: one changed file of a merge request. */
export interface FileDiff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
  diff: string;
}

/** Gitlab::Git::DiffCollection's default file limit: past it the collection overflows (`overflow`). */
export const MAX_FILES = 1000;
/** Gitlab::Git::Diff: a file's diff past this many bytes is collapsed, sent without its text. */
const MAX_DIFF_BYTES = 200 * 1024;
const FILE_MODE = '100644';
const NO_FILE_MODE = '0';

/** A file through the merge request: where it was and what it held at the base, and at the head. */
interface Tracked {
  oldPath: string;
  before: string | null;
  after: string | null;
  binary: boolean;
}

/** A hunk header as git writes it: a count of 1 is left out, an empty side starts at the line before. */
function range(start: number, lines: number): string {
  if (lines === 0) return `${start - 1},0`;
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

/** The diff text GitLab sends: git's hunks without the `---`/`+++` header lines. */
export function unifiedHunks(before: string, after: string): string {
  const patch = structuredPatch('a', 'b', before, after, '', '', { context: 3 });
  return patch.hunks
    .map(
      (hunk) =>
        `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n` +
        hunk.lines.map((line) => `${line}\n`).join(''),
    )
    .join('');
}

/** The paths a merge request's commits change, each under the name it had at the base. */
export function pathsAtBase(commits: CommitDoc[]): string[] {
  const paths = new Set<string>();
  for (const commit of commits)
    for (const file of commit.files ?? []) paths.add(file.previousPath ?? file.path);
  return [...paths];
}

/**
 * What each path held at the base: the newest earlier commit outside the merge request that changed it
 * (`earlier`, newest first). A path no commit wrote did not exist.
 */
export function contentsAtBase(paths: string[], earlier: CommitDoc[]): Map<string, string | null> {
  const found = new Map<string, string | null>();
  for (const commit of earlier) {
    for (const file of commit.files ?? []) {
      if (!paths.includes(file.path) || found.has(file.path)) continue;
      found.set(file.path, file.action === 'delete' ? null : (file.content ?? ''));
    }
  }
  return found;
}

function apply(files: Map<string, Tracked>, change: CommitFile, base: Map<string, string | null>): void {
  const from = change.previousPath ?? change.path;
  const start = (path: string): Tracked => {
    const content = base.get(path) ?? null;
    return { oldPath: path, before: content, after: content, binary: false };
  };
  const tracked = files.get(from) ?? start(from);
  if (change.action === 'move') files.delete(from);
  if (change.action === 'delete') tracked.after = null;
  else if (change.action !== 'chmod') tracked.after = change.content ?? tracked.after ?? '';
  tracked.binary ||= change.binary;
  files.set(change.path, tracked);
}

/**
 * The merge request's changes (MergeRequestDiff#diffs against its base): each file's state at the base
 * and after the last of `commits` (oldest first), diffed; a file created and deleted within it is left
 * out. `overflow` when more than MAX_FILES changed (GitLab then sends the first ones).
 */
export function mergeRequestDiffs(
  commits: CommitDoc[],
  base: Map<string, string | null>,
): { diffs: FileDiff[]; overflow: boolean } {
  const files = new Map<string, Tracked>();
  for (const commit of commits) for (const change of commit.files ?? []) apply(files, change, base);
  const diffs = [...files]
    // Created and deleted within it, or written back as it was: nothing changed.
    .filter(([, file]) => !(file.before === null && file.after === null))
    .filter(([path, file]) => path !== file.oldPath || file.before !== file.after || file.binary)
    // Git orders paths by their bytes (upper case first), not by locale.
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, file]): FileDiff => {
      // A file the base did not have is new under its last name, wherever it was moved meanwhile.
      const oldPath = file.before === null ? path : file.oldPath;
      const text = file.binary
        ? `Binary files a/${oldPath} and b/${path} differ\n`
        : unifiedHunks(file.before ?? '', file.after ?? '');
      return {
        old_path: oldPath,
        new_path: path,
        a_mode: file.before === null ? NO_FILE_MODE : FILE_MODE,
        b_mode: file.after === null ? NO_FILE_MODE : FILE_MODE,
        new_file: file.before === null,
        renamed_file: oldPath !== path,
        deleted_file: file.after === null,
        generated_file: false,
        diff: Buffer.byteLength(text) > MAX_DIFF_BYTES ? '' : text,
      };
    });
  return { diffs: diffs.slice(0, MAX_FILES), overflow: diffs.length > MAX_FILES };
}
