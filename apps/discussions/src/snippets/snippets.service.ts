import { DOMAIN_EVENT_TYPES, type UserSummary } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesStore } from '../noteables/noteables.store';
import type { NoteableWrites } from '../noteables/noteable-writes';
import { removeDependents } from '../noteables/noteable-dependents';
import { snippetFileFields, type SnippetFile } from './snippet-files';

/** What a PUT may change on a snippet. */
export interface SnippetChanges {
  title?: string;
  description?: string;
  visibility?: NonNullable<NoteableDoc['visibility']>;
  files?: SnippetFile[];
}

export interface SnippetsServiceDeps {
  models: Pick<DiscussionsModels, 'noteables' | 'notes'>;
  writes: NoteableWrites;
  store: Pick<NoteablesStore, 'findInParent'>;
}

/** Project and personal snippets: creating, changing (Snippets::UpdateService), deleting (DestroyService). */
export function createSnippetsService(deps: SnippetsServiceDeps) {
  const { writes, store } = deps;
  const { noteables, notes } = deps.models;

  return {
    /** Snippets::CreateService: a project snippet, or a personal one (`projectId` null), with its files. */
    async createSnippet(
      origin: EventOrigin,
      projectId: number | null,
      author: UserSummary,
      input: { title: string; description?: string; visibility: string; files: SnippetFile[] },
    ): Promise<NoteableDoc> {
      const doc = await writes.draft('Snippet', null, author, input.title, {
        projectId,
        description: input.description ?? null,
        ...snippetFileFields(input.files),
        visibility: input.visibility as NoteableDoc['visibility'],
      });
      return writes.insert(origin, doc, DOMAIN_EVENT_TYPES.discussions.snippetCreated);
    },

    async updateSnippet(doc: NoteableDoc, changes: SnippetChanges): Promise<NoteableDoc> {
      const { files, ...fields } = changes;
      const set: Record<string, unknown> = { updatedAt: new Date() };
      for (const [key, value] of Object.entries(fields)) if (value !== undefined) set[key] = value;
      if (files) Object.assign(set, snippetFileFields(files));
      await noteables.updateOne({ _id: doc._id, kind: 'Snippet' }, { $set: set });
      return { ...doc, ...set };
    },

    /** The snippet, its notes and their award emoji go. */
    async destroySnippet(doc: NoteableDoc): Promise<void> {
      await removeDependents(noteables, notes, 'Snippet', doc._id);
      await notes.deleteMany({ noteableType: 'Snippet', noteableId: doc._id });
      await noteables.deleteOne({ _id: doc._id, kind: 'Snippet' });
    },

    /** Project snippets are addressed by database id within their project. */
    findSnippet: (projectId: number, id: number) => store.findInParent('Snippet', 'projectId', projectId, id),
  };
}
