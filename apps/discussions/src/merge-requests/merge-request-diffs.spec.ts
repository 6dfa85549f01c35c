import type { CommitDoc, CommitFile } from '../commits/commit.model';
import {
  MAX_FILES,
  contentsAtBase,
  mergeRequestDiffs,
  pathsAtBase,
  unifiedHunks,
} from './merge-request-diffs';

const file = (
  action: CommitFile['action'],
  path: string,
  content: string | null = null,
  previousPath: string | null = null,
): CommitFile => ({
  action,
  path,
  previousPath,
  content,
  binary: false,
});
const commit = (files: CommitFile[], at = 0): CommitDoc => ({
  _id: `c${at}`,
  projectId: 1,
  branch: 'feature',
  title: 't',
  message: 't',
  parentIds: [],
  authorName: 'a',
  authorEmail: 'a@example.com',
  createdAt: new Date(at),
  files,
});

describe('merge-request-diffs', () => {
  it('When lines change in a long file, then hunks carry three lines of context as git writes them', () => {
    const before = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 5\n', 'line five\n');
    expect(unifiedHunks(before, after)).toBe(
      '@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n',
    );
    expect(unifiedHunks('a', 'b')).toBe(
      '@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n',
    );
  });

  it('When a base file is moved, then it is renamed from its base path; a file created and deleted is left out', () => {
    const commits = [
      commit([file('move', 'new.md', 'same\n', 'old.md'), file('create', 'tmp', 'x\n')], 1),
      commit([file('delete', 'tmp')], 2),
    ];
    expect(pathsAtBase(commits)).toEqual(['old.md', 'tmp']);
    const base = contentsAtBase(['old.md', 'tmp'], [commit([file('create', 'old.md', 'same\n')])]);
    const { diffs } = mergeRequestDiffs(commits, base);
    expect(diffs).toEqual([
      expect.objectContaining({
        old_path: 'old.md',
        new_path: 'new.md',
        renamed_file: true,
        new_file: false,
        diff: '',
      }),
    ]);
  });

  it('When a file is written back as the base had it, then it is not a change', () => {
    const base = new Map([['a', 'v1\n']]);
    const commits = [commit([file('update', 'a', 'v2\n')], 1), commit([file('update', 'a', 'v1\n')], 2)];
    expect(mergeRequestDiffs(commits, base).diffs).toEqual([]);
  });

  it('When more files change than GitLab shows, then the first ones come and overflow is true', () => {
    const files = Array.from({ length: MAX_FILES + 1 }, (_, i) =>
      file('create', `f${String(i).padStart(5, '0')}`, 'x\n'),
    );
    const { diffs, overflow } = mergeRequestDiffs([commit(files)], new Map());
    expect(diffs).toHaveLength(MAX_FILES);
    expect(overflow).toBe(true);
  });
});
