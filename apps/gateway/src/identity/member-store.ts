import type { EventActor } from '@gl/contracts';
import { ConflictError, isDuplicateKeyError, withEvents, type EventOrigin } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, memberEvent } from './identity.events';
import type { MemberDoc } from './identity.models';

/** Membership writes, each carrying its identity event in the same single-document write. */
export interface NewMember {
  sourceType: MemberDoc['sourceType'];
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdBy: number | null;
}

export async function insertMember(
  deps: IdentityDeps,
  input: NewMember,
  origin: EventOrigin,
  actor: EventActor,
): Promise<MemberDoc> {
  const now = new Date();
  const member: MemberDoc = {
    _id: await deps.counters.next('members'),
    ...input,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.models.members.create(
      withEvents(member, [memberEvent(origin, EVENT_TYPES.identity.memberAdded, actor, member)]),
    );
  } catch (err) {
    // The unique (source, user) index settles two concurrent adds of the same user.
    if (isDuplicateKeyError(err)) throw new ConflictError('Member already exists');
    throw err;
  }
  deps.outbox.kick();
  return member;
}

export async function removeMember(
  deps: IdentityDeps,
  member: MemberDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<boolean> {
  return deps.outbox.deleteWithEvents(deps.models.members, member._id, [
    memberEvent(origin, EVENT_TYPES.identity.memberRemoved, actor, member),
  ]);
}
