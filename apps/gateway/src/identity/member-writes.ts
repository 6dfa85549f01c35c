import type { EventActor } from '@gl/contracts';
import { ConflictError, type EventOrigin } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, memberEvent, memberExpiredEvent } from './identity.events';
import type { MemberDoc } from './identity.models';
import { nextRevision } from './revisions';

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
  const event = memberEvent(origin, EVENT_TYPES.identity.memberAdded, actor, member, revision);
  // The unique (source, user) index settles two concurrent adds of the same user.
  if (!(await deps.stores.members.insert(member, [event]))) throw new ConflictError('Member already exists');
  await deps.stores.users.raiseAccessRevision(member.userId, revision);
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
  await deps.stores.members.update(updated, [
    memberEvent(origin, EVENT_TYPES.identity.memberUpdated, actor, updated, revision),
  ]);
  await deps.stores.users.raiseAccessRevision(updated.userId, revision);
  deps.outbox.kick();
}

export async function removeMember(
  deps: IdentityDeps,
  member: MemberDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<boolean> {
  return removeAtNewRevision(deps, member, (revision) =>
    deps.stores.members.remove(member._id, [
      memberEvent(origin, EVENT_TYPES.identity.memberRemoved, actor, member, revision),
    ]),
  );
}

/** A removal stamped with the next identity revision; the member's access revision follows if it went. */
async function removeAtNewRevision(
  deps: IdentityDeps,
  member: MemberDoc,
  remove: (revision: number) => Promise<boolean>,
): Promise<boolean> {
  const revision = await nextRevision(deps);
  const removed = await remove(revision);
  if (removed) await deps.stores.users.raiseAccessRevision(member.userId, revision);
  return removed;
}

/**
 * Removes a membership that has expired (expired-members.ts) and publishes `member.expired` instead of
 * `member.removed`, the way ProjectMember#post_destroy_member_hook records `expired` rather than `left`.
 * False, with nothing published, when the membership is gone, its expiry changed since it was read, or
 * another sweep is removing it at the same moment.
 */
export async function removeExpiredMember(
  deps: IdentityDeps,
  member: MemberDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<boolean> {
  return removeAtNewRevision(deps, member, (revision) =>
    deps.stores.members.removeExpired(member, [memberExpiredEvent(origin, actor, member, revision)]),
  );
}
