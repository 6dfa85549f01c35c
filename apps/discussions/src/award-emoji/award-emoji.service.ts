import type { UserSummary } from '@gl/contracts';
import { NotFoundError, type Counters } from '@gl/service-kit';
import type { AwardEmojiDoc } from './award-emoji.model';
import type { AwardEmojiStore, AwardableRef } from './award-emoji.store';
import { UPVOTE_NAME, canonicalEmojiName } from './emoji-names';

/** Where an issue's or merge request's upvote count is kept for `order_by=popularity`. */
export interface UpvoteCounts {
  setUpvotesCount(noteableId: number, count: number): Promise<void>;
}

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
  upvoteCounts: UpvoteCounts;
}) {
  const { counters, store, upvoteCounts } = deps;

  /**
   * AwardEmoji#update_awardable_upvotes_count (app/models/award_emoji.rb): after a thumbsup on an issue or
   * merge request is given or taken back, the awardable's count is counted again (not incremented: a
   * repeat or a lost update corrects itself on the next vote).
   */
  async function recountUpvotes(ref: AwardableRef, name: string): Promise<void> {
    if (name !== UPVOTE_NAME || (ref.type !== 'Issue' && ref.type !== 'MergeRequest')) return;
    await upvoteCounts.setUpvotesCount(ref.id, await store.countNamed(ref, UPVOTE_NAME));
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
  async function add(ref: AwardableRef, projectId: number, user: UserSummary, given: string) {
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
    await recountUpvotes(ref, name);
    return doc;
  }

  return {
    page: (ref: AwardableRef, skip: number, limit: number) => store.page(ref, skip, limit),
    find,
    add,
    async remove(award: AwardEmojiDoc): Promise<void> {
      await store.remove(award._id);
      await recountUpvotes({ type: award.awardableType, id: award.awardableId }, award.name);
    },
  };
}

export type AwardEmojiService = ReturnType<typeof createAwardEmojiService>;
