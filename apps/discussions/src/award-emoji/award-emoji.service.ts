import type { UserSummary } from '@gl/contracts';
import { NotFoundError, type Counters } from '@gl/service-kit';
import type { AwardEmojiDoc } from './award-emoji.model';
import type { AwardEmojiStore, AwardableRef } from './award-emoji.store';
import { DOWNVOTE_NAME, UPVOTE_NAME, canonicalEmojiName } from './emoji-names';

/** Where an issue's or merge request's vote counts are kept (`order_by=popularity`, `upvotes`, `downvotes`). */
export interface VoteCounts {
  setVotesCount(noteableId: number, field: 'upvotesCount' | 'downvotesCount', count: number): Promise<void>;
}

const VOTE_FIELDS: Record<string, 'upvotesCount' | 'downvotesCount'> = {
  [UPVOTE_NAME]: 'upvotesCount',
  [DOWNVOTE_NAME]: 'downvotesCount',
};

export type { AwardableRef } from './award-emoji.store';

/**
 * GitLab's answer when AwardEmojis::AddService fails: lib/api/award_emoji.rb
 * `not_found!("Award Emoji #{service[:message]}")`, the message being the award's full validation messages.
 */
function refused(message: string): NotFoundError {
  return new NotFoundError(`Award Emoji ${message}`);
}

/** Award emoji (app/services/award_emojis): add, find, list and remove. */
export function createAwardEmojiService(deps: {
  counters: Counters;
  store: AwardEmojiStore;
  voteCounts: VoteCounts;
}) {
  const { counters, store, voteCounts } = deps;

  /**
   * AwardEmoji#update_awardable_upvotes_count (app/models/award_emoji.rb): after a thumbsup on an issue or
   * merge request is given or taken back, the awardable's count is counted again (not incremented: a
   * repeat or a lost update corrects itself on the next vote). Thumbsdown the same, so that lists show
   * both votes from the documents instead of counting awards per page.
   */
  async function recountVotes(ref: AwardableRef, name: string): Promise<void> {
    const field = VOTE_FIELDS[name];
    // Epics count theirs too (EE::API::Entities::Epic exposes upvotes and downvotes).
    if (!field || (ref.type !== 'Issue' && ref.type !== 'MergeRequest' && ref.type !== 'Epic')) return;
    await voteCounts.setVotesCount(ref.id, field, await store.countNamed(ref, name));
  }

  async function find(ref: AwardableRef, awardId: number): Promise<AwardEmojiDoc> {
    const award = await store.find(ref, awardId);
    // `awardable.award_emoji.find(params[:award_id])`: ActiveRecord::RecordNotFound → "404 Not found".
    if (!award) throw new NotFoundError();
    return award;
  }

  /**
   * AwardEmojis::AddService: the name normalized to its emoji's canonical name, validated
   * (`Name is not a valid emoji name`), unique per user, name and awardable (`Name has already been taken`).
   */
  async function add(ref: AwardableRef, projectId: number | null, user: UserSummary, given: string) {
    const name = canonicalEmojiName(given);
    // `validates :name, presence: true, 'gitlab/emoji_name': true`, as `full_messages.to_sentence`.
    if (given.trim() === '') throw refused("Name can't be blank and Name is not a valid emoji name");
    if (!name) throw refused('Name is not a valid emoji name');
    const now = new Date();
    const doc: AwardEmojiDoc = {
      _id: await counters.next('award_emoji'),
      awardableType: ref.type,
      awardableId: ref.id,
      projectId,
      name,
      user,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await store.insert(doc))) throw refused('Name has already been taken');
    await recountVotes(ref, name);
    return doc;
  }

  return {
    page: (ref: AwardableRef, skip: number, limit: number) => store.page(ref, skip, limit),
    find,
    add,
    async remove(award: AwardEmojiDoc): Promise<void> {
      await store.remove(award._id);
      await recountVotes({ type: award.awardableType, id: award.awardableId }, award.name);
    },
  };
}

export type AwardEmojiService = ReturnType<typeof createAwardEmojiService>;
