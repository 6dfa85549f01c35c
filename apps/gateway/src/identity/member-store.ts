import type { EventActor } from '@gl/contracts';
import {
  ConflictError,
  isDuplicateKeyError,
  pushEvents,
  withEvents,
  type EventOrigin,
} from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, memberEvent } from './identity.events';
import type { MemberDoc } from './identity.models';
import { nextRevision, userRevised } from './revisions';

/**
 * Membership writes, each carrying its identity event in the same single-document write, and each
 * stamped with an identity revision that the member's next requests must see applied (revisions.ts).
 */
export interface NewMember {
  sourceType: MemberDoc['sourceType'];
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdBy: number | null;
}

/** The membership a creation grants (a new group's Owner, a new project's owner): permanent, by its creator. */
export function insertCreatorMember(
  deps: IdentityDeps,
  input: Omit<NewMember, 'expiresAt'>,
  origin: EventOrigin,
  actor: EventActor,
): Promise<MemberDoc> {
  return insertMember(deps, { ...input, expiresAt: null }, origin, actor);
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
  const revision = await nextRevision(deps);
  try {
    await deps.models.members.create(
      withEvents(member, [memberEvent(origin, EVENT_TYPES.identity.memberAdded, actor, member, revision)]),
    );
  } catch (err) {
    // The unique (source, user) index settles two concurrent adds of the same user.
    if (isDuplicateKeyError(err)) throw new ConflictError('Member already exists');
    throw err;
  }
  await userRevised(deps.models, member.userId, revision);
  deps.outbox.kick();
  return member;
}

/** Level or expiry changed (`updated` is the member as it will be stored). */
export async function updateMember(
  deps: IdentityDeps,
  updated: MemberDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  const revision = await nextRevision(deps);
  await deps.models.members.updateOne(
    { _id: updated._id },
    pushEvents(
      {
        $set: {
          accessLevel: updated.accessLevel,
          expiresAt: updated.expiresAt,
          updatedAt: updated.updatedAt,
        },
      },
      [memberEvent(origin, EVENT_TYPES.identity.memberUpdated, actor, updated, revision)],
    ),
  );
  await userRevised(deps.models, updated.userId, revision);
  deps.outbox.kick();
}

export async function removeMember(
  deps: IdentityDeps,
  member: MemberDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<boolean> {
  const revision = await nextRevision(deps);
  const removed = await deps.outbox.deleteWithEvents(deps.models.members, member._id, [
    memberEvent(origin, EVENT_TYPES.identity.memberRemoved, actor, member, revision),
  ]);
  if (removed) await userRevised(deps.models, member.userId, revision);
  return removed;
}
