import type { UserSummary } from '@gl/contracts';
import { NotFoundError, type Counters } from '@gl/service-kit';
import type { AwardEmojiDoc } from './award-emoji.model';
import type { AwardEmojiStore, AwardableRef } from './award-emoji.store';
import { canonicalEmojiName } from './emoji-names';

export type { AwardableRef } from './award-emoji.store';

/**
 * GitLab's answer when AwardEmojis::AddService fails: lib/api/award_emoji.rb
 * `not_found!("Award Emoji #{service[:message]}")`, the message being the award's full validation messages.
 */
function refused(message: string): NotFoundError {
  return new NotFoundError(`Award Emoji ${message}`);
}

/** Award emoji (app/services/award_emojis): add, find, list and remove. */
export function createAwardEmojiService(deps: { counters: Counters; store: AwardEmojiStore }) {
  const { counters, store } = deps;

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
    return doc;
  }

  return {
    page: (ref: AwardableRef, skip: number, limit: number) => store.page(ref, skip, limit),
    find,
    add,
    remove: (award: AwardEmojiDoc) => store.remove(award._id),
  };
}

export type AwardEmojiService = ReturnType<typeof createAwardEmojiService>;
