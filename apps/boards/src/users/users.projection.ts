import { DURABLES } from '@gl/contracts';
import { identitySubscription, userCopyHandlers, type Subscription } from '@gl/service-kit';
import type { Model } from 'mongoose';
import type { BoardsModels } from '../boards.models';

/**
 * The boards service's copy of users (the service kit's user copy, from identity events), for assignee
 * lists and board scoping: the address gives avatar_url, a deleted user shows as the Ghost User; an older
 * redelivered event never overwrites a newer copy. Boards hold no content a user authored, so a deletion
 * only marks the copy.
 */
export function createUsersSubscription(models: BoardsModels): Subscription {
  return identitySubscription(
    DURABLES.boardsIdentity,
    userCopyHandlers(models.users as unknown as Model<never>),
  );
}
