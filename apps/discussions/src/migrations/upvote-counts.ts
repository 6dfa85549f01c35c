import type { Model } from 'mongoose';
import { compiledModels, reportingMigration, type Migration } from '@gl/service-kit';
import type { AwardEmojiDoc } from '../award-emoji/award-emoji.model';
import { UPVOTE_NAME } from '../award-emoji/emoji-names';
import type { NoteableDoc } from '../noteables/noteable.model';
import { setAwardCounts } from './award-counts';

/**
 * `upvotesCount` (GitLab's `upvotes_count`, for `order_by=popularity`) on the issues and merge requests
 * voted on before it was kept: the thumbsup awards counted per awardable, each count set. Idempotent.
 */
export function upvoteCountsMigration(version: number): Migration {
  return reportingMigration(
    version,
    'noteables: upvotesCount from the thumbsup awards, for order_by=popularity',
    'noteables: upvotesCount set',
    async (connection) => {
      const { awards, noteables } = compiledModels<{
        awards: Model<AwardEmojiDoc>;
        noteables: Model<NoteableDoc>;
      }>(connection, { awards: 'AwardEmoji', noteables: 'Noteable' });
      return { voted: await setAwardCounts(awards, noteables, UPVOTE_NAME, 'upvotesCount') };
    },
  );
}
