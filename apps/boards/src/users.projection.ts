import { DURABLES } from '@gl/contracts';
import {
  applyIdentityEvent,
  identitySubjects,
  projectIdentity,
  type IdentityHandlers,
  type Subscription,
} from '@gl/service-kit';
import type { BoardsModels } from './boards.models';

/**
 * The boards service's copy of users (from identity events), for assignee lists and board scoping; an
 * older redelivered event never overwrites a newer copy.
 */
export function createUsersSubscription(models: BoardsModels): Subscription {
  const handlers: IdentityHandlers = {
    user: (user, event) =>
      projectIdentity(models.users, user.userId, event, {
        username: user.username,
        name: user.name,
        state: user.state,
      }),
  };
  return {
    durable: DURABLES.boardsIdentity,
    filterSubjects: identitySubjects(handlers),
    handle: async (event) => {
      await applyIdentityEvent(handlers, event);
    },
  };
}
