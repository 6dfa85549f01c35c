import { reportingMigration, type Migration } from '@gl/service-kit';
import { DOWNVOTE_NAME } from '../award-emoji/emoji-names';
import { setAwardCounts } from './award-counts';
import { compiledDiscussionsModels } from './compiled-models';

/**
 * The counts lists now show from each noteable's own document, for the noteables written before they were
 * kept: `downvotesCount` from the thumbsdown awards (award-emoji.service.ts) and `userNotesCount` /
 * `internalNotesCount` from the comments (notes/note-counts.ts). Idempotent: every count is set, not added.
 */
export function noteableCountsMigration(version: number): Migration {
  return reportingMigration(
    version,
    'noteables: downvotesCount and comment counts kept on each noteable',
    'noteables: downvotesCount and comment counts set',
    async (connection) => {
      const models = compiledDiscussionsModels(connection, 'awardEmoji', 'noteables', 'notes');
      const { awardEmoji, noteables, notes } = models;
      const downvoted = await setAwardCounts(awardEmoji, noteables, DOWNVOTE_NAME, 'downvotesCount');
      const comments = await notes.aggregate<{ _id: { id: number; internal: boolean | null }; n: number }>([
        { $match: { system: false, noteableId: { $ne: null } } },
        { $group: { _id: { id: '$noteableId', internal: '$internal' }, n: { $sum: 1 } } },
      ]);
      const counts = new Map<number, { userNotesCount: number; internalNotesCount: number }>();
      for (const { _id, n } of comments) {
        const count = counts.get(_id.id) ?? { userNotesCount: 0, internalNotesCount: 0 };
        if (_id.internal === true) count.internalNotesCount += n;
        else count.userNotesCount += n;
        counts.set(_id.id, count);
      }
      for (const [_id, count] of counts) await noteables.updateOne({ _id }, { $set: count });
      return { downvoted, commented: counts.size };
    },
  );
}
