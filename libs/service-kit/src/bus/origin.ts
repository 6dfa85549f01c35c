import type { EventActor, InternalContext, Principal } from '@gl/contracts';
import type { EventOrigin } from './events';

/** Who did it, as every event names its actor: id, username and name, nothing more (events are public). */
export function eventActor(
  principal: Pick<Principal, 'id' | 'username' | 'name'> | null | undefined,
): EventActor {
  return principal ? { id: principal.id, username: principal.username, name: principal.name } : null;
}

/**
 * Where an event comes from: the service that writes it, and the request it was written by (its request id
 * is the correlation id logs and traces join on); null for writes no request made (workers, jobs).
 */
export function requestOrigin(producer: string, ctx: Pick<InternalContext, 'requestId'> | null): EventOrigin {
  return { producer, correlationId: ctx?.requestId ?? null };
}
