import type { AwardEmojiEntity } from '@gl/contracts';
import { isoNow } from '../common/presenting';
import type { AwardEmojiDoc } from './award-emoji.model';

/** lib/api/entities/award_emoji.rb. */
export function presentAward(award: AwardEmojiDoc): AwardEmojiEntity {
  return {
    id: award._id,
    name: award.name,
    user: award.user,
    created_at: isoNow(award.createdAt),
    updated_at: isoNow(award.updatedAt),
    awardable_id: award.awardableId,
    awardable_type: award.awardableType,
    url: null,
  };
}
