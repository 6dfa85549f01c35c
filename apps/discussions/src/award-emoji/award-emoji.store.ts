import { findPage, insertUnique } from '@gl/service-kit';
import type { DiscussionsDeps } from '../discussions.models';
import type { AwardEmojiDoc, AwardableType } from './award-emoji.model';

/** One awardable: its type and id. */
export interface AwardableRef {
  type: AwardableType;
  id: number;
}

/** Up and down votes of one issuable (GitLab's `upvotes`, `downvotes`). */
export interface Votes {
  upvotes: number;
  downvotes: number;
}

function ofAwardable(ref: AwardableRef) {
  return { awardableType: ref.type, awardableId: ref.id };
}

/** Every read and write of the `award_emoji` collection. */
export function createAwardEmojiStore(deps: Pick<DiscussionsDeps, 'models'>) {
  const awards = deps.models.awardEmoji;

  return {
    /** One page of an awardable's awards, oldest first, and their number (counted only when needed). */
    async page(ref: AwardableRef, skip: number, limit: number) {
      const { docs, total } = await findPage(awards, ofAwardable(ref), { _id: 1 }, { skip, perPage: limit });
      return { items: docs, total };
    },

    async find(ref: AwardableRef, awardId: number): Promise<AwardEmojiDoc | null> {
      return awards.findOne({ ...ofAwardable(ref), _id: awardId }).lean<AwardEmojiDoc>();
    },

    /** Inserts an award; false when the user already gave this emoji to this awardable (the unique index). */
    insert(doc: AwardEmojiDoc): Promise<boolean> {
      return insertUnique(awards, doc);
    },

    /** How many awards of one name an awardable has. */
    countNamed(ref: AwardableRef, name: string): Promise<number> {
      return awards.countDocuments({ ...ofAwardable(ref), name }).exec();
    },

    async remove(awardId: number): Promise<void> {
      await awards.deleteOne({ _id: awardId });
    },

    /** The thumbsup and thumbsdown awards of some awardables of one type, counted in one query. */
    async votes(type: string, ids: number[], names: { up: string; down: string }) {
      const counts = new Map<number, Votes>();
      if (ids.length === 0) return counts;
      const rows = await awards.aggregate<{ _id: { id: number; name: string }; n: number }>([
        { $match: { awardableType: type, awardableId: { $in: ids }, name: { $in: [names.up, names.down] } } },
        { $group: { _id: { id: '$awardableId', name: '$name' }, n: { $sum: 1 } } },
      ]);
      for (const row of rows) {
        const votes = counts.get(row._id.id) ?? { upvotes: 0, downvotes: 0 };
        if (row._id.name === names.up) votes.upvotes = row.n;
        else votes.downvotes = row.n;
        counts.set(row._id.id, votes);
      }
      return counts;
    },
  };
}

export type AwardEmojiStore = ReturnType<typeof createAwardEmojiStore>;
