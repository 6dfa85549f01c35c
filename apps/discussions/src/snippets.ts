import type { SnippetFileAction } from '@gl/contracts';
import type { NoteableDoc } from './discussions.models';
import type { NotesDeps } from './notes.service';

/** A snippet's one file (this API keeps one file per snippet, as GitLab's snippets without a repository). */
export interface SnippetFile {
  fileName: string | null;
  content: string | null;
}

/**
 * Snippets::UpdateService's `files` actions on the snippet's file: `create`, `update`, `move` and `delete`
 * by path. Null when the actions do not apply (SnippetInputActionCollection#valid?: a path that is not
 * there, a file created twice) or leave anything but one file.
 */
export function applyFileActions(current: SnippetFile, actions: SnippetFileAction[]): SnippetFile | null {
  const files = new Map<string, string>();
  if (current.fileName) files.set(current.fileName, current.content ?? '');
  for (const action of actions) {
    const path = action.file_path;
    if (action.action === 'create') {
      if (!path || action.content === undefined || files.has(path)) return null;
      files.set(path, action.content);
    } else if (action.action === 'update') {
      if (!path || !files.has(path)) return null;
      files.set(path, action.content ?? files.get(path)!);
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
  const [only, ...more] = [...files];
  if (!only || more.length > 0) return null;
  return { fileName: only[0], content: only[1] };
}

/** What a PUT may change on a snippet. */
export interface SnippetChanges {
  title?: string;
  description?: string;
  visibility?: NonNullable<NoteableDoc['visibility']>;
  fileName?: string;
  content?: string;
}

/** Changing and deleting snippets (Snippets::UpdateService, Snippets::DestroyService). */
export function createSnippetEdits(deps: Pick<NotesDeps, 'models'>) {
  const { noteables, notes } = deps.models;
  return {
    async updateSnippet(doc: NoteableDoc, changes: SnippetChanges): Promise<NoteableDoc> {
      const set: Record<string, unknown> = { updatedAt: new Date() };
      for (const [key, value] of Object.entries(changes)) if (value !== undefined) set[key] = value;
      await noteables.updateOne({ _id: doc._id, kind: 'Snippet' }, { $set: set });
      return { ...doc, ...set };
    },
    /** The snippet and its notes go. */
    async destroySnippet(doc: NoteableDoc): Promise<void> {
      await notes.deleteMany({ noteableType: 'Snippet', noteableId: doc._id });
      await noteables.deleteOne({ _id: doc._id, kind: 'Snippet' });
    },
  };
}
