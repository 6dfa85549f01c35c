import type { Model } from 'mongoose';
import { DURABLES } from '@gl/contracts';
import { identitySubscription, userCopyHandlers, type Subscription } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import { createUsersStore } from './users.store';

/**
 * Discussions' copy of users (the service kit's user copy): usernames for "assigned to @user" system notes
 * and mentions, addresses for participants' avatar_url, and a deleted user's contributions, which pass to
 * the Ghost User or, with `hardDelete`, go (users.store.ts).
 */
export function createUsersSubscription(
  models: Pick<DiscussionsModels, 'users' | 'noteables' | 'notes'>,
): Subscription {
  const store = createUsersStore(models);
  return identitySubscription(
    DURABLES.discussionsUsers,
    userCopyHandlers(models.users as unknown as Model<never>, {
      destroyed: (data) => store.userDestroyed(data.userId, data.hardDelete),
    }),
  );
}
