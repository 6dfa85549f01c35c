import type { SnippetFileAction } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';

/** A lone UTF-16 surrogate as U+FFFD, so that encodeURI and headers take any stored path. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** One file of a snippet. */
export interface SnippetFile {
  path: string;
  content: string;
}

/** Snippet::MAX_FILE_COUNT (app/models/snippet.rb): the files a snippet may hold. */
export const SNIPPET_MAX_FILES = 10;

/** The branch every snippet's files are on (Snippet#default_branch, the instance's default). */
export const SNIPPET_REF = 'main';

/**
 * A snippet's files as its repository lists them (`list_files`: `git ls-files`, by path). Snippets written
 * before several files existed have their one file in `fileName` and `content`.
 */
export function filesOf(doc: Pick<NoteableDoc, 'snippetFiles' | 'fileName' | 'content'>): SnippetFile[] {
  if (doc.snippetFiles && doc.snippetFiles.length > 0) return doc.snippetFiles;
  return doc.fileName ? [{ path: doc.fileName, content: doc.content ?? '' }] : [];
}

/** `git ls-files` order: by path, byte-wise. */
function byPath(files: SnippetFile[]): SnippetFile[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The stored fields of a snippet with these files: all of them, and the first again as `fileName` and
 * `content` (what Entities::Snippet shows as `file_name`, and `raw` answers).
 */
export function snippetFileFields(
  files: SnippetFile[],
): Pick<NoteableDoc, 'snippetFiles' | 'fileName' | 'content'> {
  const sorted = byPath(files);
  return { snippetFiles: sorted, fileName: sorted[0]?.path ?? null, content: sorted[0]?.content ?? null };
}

/**
 * Snippets::UpdateService's `files` actions (SnippetInputAction): `create` a new path with content,
 * `update` an existing path's content, `move` `previous_path` to `file_path` (content optional), `delete`
 * a path. Null when an action does not apply (SnippetInputActionCollection#valid?: a path that is not
 * there, a file created twice, a missing content) or no file would be left. A file created without a path
 * gets SnippetRepository's generated name.
 */
export function applyFileActions(current: SnippetFile[], actions: SnippetFileAction[]): SnippetFile[] | null {
  const files = new Map<string, string>(current.map((f) => [f.path, f.content]));
  for (const action of actions) {
    const path = action.file_path;
    if (action.action === 'create') {
      const named = orEmptyFileName(path, files.keys());
      if (action.content === undefined || files.has(named)) return null;
      files.set(named, action.content);
    } else if (action.action === 'update') {
      if (!path || action.content === undefined || !files.has(path)) return null;
      files.set(path, action.content);
    } else if (action.action === 'move') {
      const from = action.previous_path;
      if (!from || !path || !files.has(from) || (from !== path && files.has(path))) return null;
      const content = action.content ?? files.get(from)!;
      files.delete(from);
      files.set(path, content);
    } else {
      if (!path || !files.delete(path)) return null;
    }
  }
  if (files.size === 0) return null;
  return [...files].map(([path, content]) => ({ path, content }));
}

/**
 * SnippetRepository: a file created without a path (blank) is named `snippetfile<n>.txt`, n one past the highest
 * such name the snippet already has (DEFAULT_EMPTY_FILE_NAME, EMPTY_FILE_PATTERN).
 */
export function orEmptyFileName(path: string | undefined, paths: Iterable<string>): string {
  if (path !== undefined && path.trim() !== '') return path;
  let last = 0;
  for (const path of paths) {
    const n = /^snippetfile(\d+)\.txt$/.exec(path)?.[1];
    if (n) last = Math.max(last, Number(n));
  }
  return `snippetfile${last + 1}.txt`;
}
