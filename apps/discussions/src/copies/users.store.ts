import type { Model } from 'mongoose';
import type { UserSummary } from '@gl/contracts';
import { GHOST_USER, deleteManyInBatches, userSummary } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import { uncountNotes } from '../notes/note-counts';

/** Documents rewritten or removed per statement (well below SQLite's bound-variable limit). */
const BATCH = 500;

type IdDoc = { _id: number };

const KINDS: NoteableDoc['kind'][] = ['Issue', 'MergeRequest', 'Snippet', 'Epic'];
/**
 * Statements one delivery of a user.destroyed event may run: past that the handler stops and the event is
 * redelivered, carrying on where the last delivery stopped (every step only matches what is still left).
 */
const STATEMENTS_PER_DELIVERY = 40;

/** A deleted user's contributions take longer than one delivery: the event comes back to finish them. */
export class ContributionsPending extends Error {
  constructor(userId: number) {
    super(`contributions of deleted user ${userId} not all moved yet; continuing on redelivery`);
  }
}

/** The Ghost User's summary on the instance a stored summary points at (its web_url without the username). */
function ghostLike(stored: Pick<UserSummary, 'username' | 'web_url'>): UserSummary {
  const suffix = `/${stored.username}`;
  const base = stored.web_url.endsWith(suffix) ? stored.web_url.slice(0, -suffix.length) : '';
  return userSummary(GHOST_USER, base);
}

/** A counter of the statements one delivery may still run. */
function budget(userId: number) {
  let left = STATEMENTS_PER_DELIVERY;
  return () => {
    if (left-- <= 0) throw new ContributionsPending(userId);
  };
}

/**
 * What discussions does with a deleted user's contributions (Users::DestroyService): authored issues,
 * merge requests, snippets, epics and notes pass to the Ghost User (Users::MigrateToGhostUserService);
 * references GitLab's foreign keys nullify (an issue's closed_by, a merge request's merged_by, a note's
 * resolved_by) become null; with `hardDelete` the authored notes, issues, merge requests and snippets
 * (with their notes) are deleted instead. Each step matches only what is left, so a redelivery resumes or
 * changes nothing.
 */
export function createUsersStore(models: Pick<DiscussionsModels, 'noteables' | 'notes'>) {
  const noteables = models.noteables;
  const notes = models.notes;

  /** Replaces the embedded summary at `field` of every document where it is the user's. */
  async function rewrite(
    model: Model<IdDoc>,
    field: string,
    userId: number,
    replacement: (stored: UserSummary) => UserSummary | null,
    spend: () => void,
    scope: Record<string, unknown> = {},
  ): Promise<void> {
    for (;;) {
      spend();
      const docs = await model
        .find({ ...scope, [`${field}.id`]: userId }, { _id: 1, [field]: 1 })
        .limit(BATCH)
        .lean<Record<string, unknown>[]>();
      if (docs.length === 0) return;
      // One statement per distinct replacement (normally one: the same instance URL throughout).
      const groups = new Map<string, { value: UserSummary | null; ids: unknown[] }>();
      for (const doc of docs) {
        const value = replacement(doc[field] as UserSummary);
        const key = JSON.stringify(value);
        const group = groups.get(key) ?? { value, ids: [] };
        group.ids.push(doc._id);
        groups.set(key, group);
      }
      for (const { value, ids } of groups.values()) {
        await model.updateMany({ _id: { $in: ids } }, { $set: { [field]: value } });
      }
      if (docs.length < BATCH) return;
    }
  }

  /** The noteables of one kind authored by the user, with their notes and epic links. */
  async function removeAuthored(userId: number, kind: NoteableDoc['kind'], spend: () => void) {
    for (;;) {
      spend();
      // By kind and author: the (kind, author.id) index answers it.
      const ids = (
        await noteables
          .find({ kind, 'author.id': userId }, { _id: 1 })
          .limit(BATCH)
          .lean<Pick<NoteableDoc, '_id'>[]>()
      ).map((doc) => doc._id);
      if (ids.length === 0) return;
      await deleteManyInBatches(notes, { noteableType: kind, noteableId: { $in: ids } });
      if (kind === 'Issue')
        await noteables.db.collection('epic_issues').deleteMany({ issueId: { $in: ids } });
      await noteables.deleteMany({ _id: { $in: ids } });
      await noteables.db.collection('noteable_words').deleteMany({ noteableId: { $in: ids } });
      if (ids.length < BATCH) return;
    }
  }

  return {
    /**
     * Applies a user's deletion to what discussions stores; throws ContributionsPending when the work of
     * one delivery is used up (the event is then redelivered and resumes).
     */
    async userDestroyed(userId: number, hardDelete: boolean): Promise<void> {
      const spend = budget(userId);
      const anyNotes = notes as unknown as Model<IdDoc>;
      const anyNoteables = noteables as unknown as Model<IdDoc>;
      if (hardDelete) {
        for (;;) {
          spend();
          const batch = await notes
            .find({ 'author.id': userId }, { _id: 1, noteableId: 1, system: 1, internal: 1 })
            .limit(BATCH)
            .lean();
          // Uncounted on their noteables first, as every note removal (notes/note-counts.ts).
          await uncountNotes(noteables, batch);
          if (batch.length > 0) await notes.deleteMany({ _id: { $in: batch.map((note) => note._id) } });
          if (batch.length < BATCH) break;
        }
        for (const kind of ['Issue', 'MergeRequest', 'Snippet'] as const)
          await removeAuthored(userId, kind, spend);
      }
      await rewrite(anyNotes, 'author', userId, ghostLike, spend);
      for (const kind of KINDS) await rewrite(anyNoteables, 'author', userId, ghostLike, spend, { kind });
      await rewrite(anyNotes, 'resolvedBy', userId, () => null, spend);
      await rewrite(anyNoteables, 'closedBy', userId, () => null, spend);
      await rewrite(anyNoteables, 'mergedBy', userId, () => null, spend);
    },
  };
}
