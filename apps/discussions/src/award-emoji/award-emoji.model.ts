import { Schema } from 'mongoose';
import type { UserSummary } from '@gl/contracts';
import { documentSchema } from '@gl/service-kit';

/** What an award hangs on: an issue, merge request, snippet or epic (noteable id), or a note of one (note id). */
export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic' | 'Note';

/** One award emoji (GitLab's award_emoji table): a user's named emoji on one awardable. */
export interface AwardEmojiDoc {
  _id: number;
  awardableType: AwardableType;
  awardableId: number;
  /** The awardable's project; null for an epic (or its note), which belongs to a group. */
  projectId: number | null;
  name: string;
  user: UserSummary;
  createdAt: Date;
  updatedAt: Date;
}

export function awardEmojiSchema(): Schema<AwardEmojiDoc> {
  const schema = documentSchema<AwardEmojiDoc>({
    _id: Number,
    awardableType: String,
    awardableId: Number,
    projectId: Number,
    name: String,
    user: Schema.Types.Mixed,
    createdAt: Date,
    updatedAt: Date,
  });
  // The list of an awardable, in id order; and the votes of a page of issuables (by name).
  schema.index({ awardableType: 1, awardableId: 1, _id: 1 });
  schema.index({ awardableType: 1, awardableId: 1, name: 1 });
  // A caller's awards, for `my_reaction_emoji` in issue and merge request lists (lists/issuables.scope.ts).
  schema.index({ 'user.id': 1, awardableType: 1, name: 1, awardableId: 1 });
  // AwardEmoji: `validates :name, uniqueness: { scope: [:user, :awardable_type, :awardable_id] }`.
  schema.index({ awardableType: 1, awardableId: 1, 'user.id': 1, name: 1 }, { unique: true });
  return schema;
}
