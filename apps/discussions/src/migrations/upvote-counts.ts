import type { Model } from 'mongoose';
import { compiledModels, type Migration } from '@gl/service-kit';
import type { AwardEmojiDoc } from '../award-emoji/award-emoji.model';
import { UPVOTE_NAME } from '../award-emoji/emoji-names';
import type { NoteableDoc } from '../noteables/noteable.model';

/**
 * `upvotesCount` (GitLab's `upvotes_count`, for `order_by=popularity`) on the issues and merge requests
 * voted on before it was kept: the thumbsup awards counted per awardable, each count set. Idempotent.
 */
export function upvoteCountsMigration(version: number): Migration {
  return {
    version,
    name: 'noteables: upvotesCount from the thumbsup awards, for order_by=popularity',
    async up(connection, logger) {
      const started = Date.now();
      const { awards, noteables } = compiledModels<{
        awards: Model<AwardEmojiDoc>;
        noteables: Model<NoteableDoc>;
      }>(connection, { awards: 'AwardEmoji', noteables: 'Noteable' });
      const counts = await awards.aggregate<{ _id: number; n: number }>([
        { $match: { name: UPVOTE_NAME, awardableType: { $in: ['Issue', 'MergeRequest'] } } },
        { $group: { _id: '$awardableId', n: { $sum: 1 } } },
      ]);
      for (const { _id, n } of counts) {
        await noteables.updateOne({ _id }, { $set: { upvotesCount: n } });
      }
      logger.info({ ms: Date.now() - started, voted: counts.length }, 'noteables: upvotesCount set');
    },
  };
}
