import type { z } from 'zod';
import {
  EVENT_TYPES,
  groupEventData,
  memberEventData,
  projectEventData,
  userDestroyedEventData,
  userEventData,
  type EventEnvelope,
} from '@gl/contracts';
import { eventData } from './consumer';

const ID = EVENT_TYPES.identity;

type Handler<S extends z.ZodType> = (data: z.infer<S>, event: EventEnvelope) => Promise<unknown>;

/**
 * What a service keeps of the gateway's identity events, one handler per kind of change; a service names
 * only the kinds it needs. Handlers write with `projectIdentity`, `markDestroyed`, `recordMembership` and
 * `forgetMembership` (`mongo/projection.ts`), which hold the one out-of-order guard.
 */
export interface IdentityHandlers {
  /** user.created / user.updated */
  user?: Handler<typeof userEventData>;
  /** user.destroyed: their contributions pass to the Ghost User, or go with them (`hardDelete`). */
  userDestroyed?: Handler<typeof userDestroyedEventData>;
  /** project.created / project.updated */
  project?: Handler<typeof projectEventData>;
  projectDestroyed?: Handler<typeof projectEventData>;
  /** group.created / group.updated */
  group?: Handler<typeof groupEventData>;
  groupDestroyed?: Handler<typeof groupEventData>;
  /** member.added / member.updated */
  member?: Handler<typeof memberEventData>;
  /** member.removed / member.expired */
  memberGone?: Handler<typeof memberEventData>;
}

const ROUTES: { [K in keyof Required<IdentityHandlers>]: { types: string[]; schema: z.ZodType } } = {
  user: { types: [ID.userCreated, ID.userUpdated], schema: userEventData },
  userDestroyed: { types: [ID.userDestroyed], schema: userDestroyedEventData },
  project: { types: [ID.projectCreated, ID.projectUpdated], schema: projectEventData },
  projectDestroyed: { types: [ID.projectDestroyed], schema: projectEventData },
  group: { types: [ID.groupCreated, ID.groupUpdated], schema: groupEventData },
  groupDestroyed: { types: [ID.groupDestroyed], schema: groupEventData },
  member: { types: [ID.memberAdded, ID.memberUpdated], schema: memberEventData },
  memberGone: { types: [ID.memberRemoved, ID.memberExpired], schema: memberEventData },
};

const kindOf = new Map(
  Object.entries(ROUTES).flatMap(([kind, route]) =>
    route.types.map((type) => [type, kind as keyof IdentityHandlers]),
  ),
);

/**
 * The subjects a subscription needs for these handlers, in the order the handlers are written (a durable
 * consumer's filter stays the same across versions).
 */
export function identitySubjects(handlers: IdentityHandlers): string[] {
  return (Object.keys(handlers) as (keyof IdentityHandlers)[])
    .filter((kind) => handlers[kind] !== undefined)
    .flatMap((kind) => ROUTES[kind].types);
}

/**
 * Parses an identity event (poison if its data does not parse) and hands it to its handler. Resolves true
 * when a handler took it, false for any other event.
 */
export async function applyIdentityEvent(handlers: IdentityHandlers, event: EventEnvelope): Promise<boolean> {
  const kind = kindOf.get(event.type);
  const handler = kind === undefined ? undefined : handlers[kind];
  if (kind === undefined || handler === undefined) return false;
  await (handler as Handler<z.ZodType>)(eventData(ROUTES[kind].schema, event), event);
  return true;
}
