import { DURABLES, EVENT_TYPES, userEventData } from '@gl/contracts';
import { PoisonMessageError, type Subscription } from '@gl/service-kit';
import type { BoardsModels } from './boards.models';

/** The boards service's copy of users (from identity events), for assignee lists and board scoping. */
export function createUsersSubscription(models: BoardsModels): Subscription {
  const { userCreated, userUpdated } = EVENT_TYPES.identity;
  return {
    durable: DURABLES.boardsIdentity,
    filterSubjects: [userCreated, userUpdated],
    async handle(event) {
      const parsed = userEventData.safeParse(event.data);
      if (!parsed.success) throw new PoisonMessageError(`${event.type} with invalid data`);
      const user = parsed.data;
      await models.users.updateOne(
        { _id: user.userId },
        { $set: { username: user.username, name: user.name, state: user.state } },
        { upsert: true },
      );
    },
  };
}
