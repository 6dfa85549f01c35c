import type { Model } from 'mongoose';
import type { AwardEmojiDoc } from '../award-emoji/award-emoji.model';
import type { NoteableDoc } from '../noteables/noteable.model';

/**
 * The awards named `emoji` counted per issue and merge request, each count set as `field` on the
 * noteable's own document (set, not added: idempotent). Returns how many noteables got a count.
 */
export async function setAwardCounts(
  awards: Model<AwardEmojiDoc>,
  noteables: Model<NoteableDoc>,
  emoji: string,
  field: 'upvotesCount' | 'downvotesCount',
): Promise<number> {
  const counts = await awards.aggregate<{ _id: number; n: number }>([
    { $match: { name: emoji, awardableType: { $in: ['Issue', 'MergeRequest'] } } },
    { $group: { _id: '$awardableId', n: { $sum: 1 } } },
  ]);
  for (const { _id, n } of counts) await noteables.updateOne({ _id }, { $set: { [field]: n } });
  return counts.length;
}
