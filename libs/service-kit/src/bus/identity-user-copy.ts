import type { Model } from 'mongoose';
import type { z } from 'zod';
import type { EventEnvelope, userDestroyedEventData, userEventData } from '@gl/contracts';
import { markDestroyed, projectIdentity } from '../mongo/projection';
import type { IdentityHandlers } from './identity-projection';

type UserData = z.infer<typeof userEventData>;
type UserDestroyedData = z.infer<typeof userDestroyedEventData>;

/** What a service adds to the common user copy. */
export interface UserCopyOptions {
  /** Fields of its own beside username, name, state and e-mail (e.g. a lower-cased username). */
  fields?: (data: UserData) => Record<string, unknown>;
  /**
   * After the copy is marked destroyed: what the service does with the user's contributions (move them to
   * the Ghost User, or delete them on `hardDelete`). Must be idempotent; it runs again on redelivery.
   */
  destroyed?: (data: UserDestroyedData, event: EventEnvelope) => Promise<void>;
}

/**
 * The copy of users every service that shows users keeps, one definition: username, name, state and the
 * primary e-mail, from which `userSummary` derives the same avatar_url as the gateway. A deleted user's
 * copy is marked `destroyed` for good (a late create/update event never revives it), so `userSummary`
 * shows the Ghost User for them. Existing copies get the address on the user's next event.
 */
export function userCopyHandlers(users: Model<never>, options: UserCopyOptions = {}): IdentityHandlers {
  return {
    user: (data, event) =>
      projectIdentity(
        users,
        data.userId,
        event,
        {
          username: data.username,
          name: data.name,
          state: data.state,
          email: data.email,
          ...options.fields?.(data),
        },
        { unlessDestroyed: true },
      ),
    userDestroyed: async (data, event) => {
      await markDestroyed(users, data.userId);
      await options.destroyed?.(data, event);
    },
  };
}
