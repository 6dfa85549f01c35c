import { reportingMigration, type Migration } from '@gl/service-kit';
import { UPVOTE_NAME } from '../award-emoji/emoji-names';
import { setAwardCounts } from './award-counts';
import { compiledDiscussionsModels } from './compiled-models';

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
      const { awardEmoji, noteables } = compiledDiscussionsModels(connection, 'awardEmoji', 'noteables');
      return { voted: await setAwardCounts(awardEmoji, noteables, UPVOTE_NAME, 'upvotesCount') };
    },
  );
}
