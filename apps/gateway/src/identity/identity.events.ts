import { createHash } from 'node:crypto';
import { EVENT_TYPES, type EventActor, type EventEnvelope } from '@gl/contracts';
import { createEvent, type EventOrigin } from '@gl/service-kit';
import type { MemberDoc, NamespaceDoc, ProjectDoc, UserDoc } from './identity.models';
import { featureLevels } from './project-features';

/** Builds the identity events other services project from (user summaries, visibility, memberships). */
export function actorOf(user: Pick<UserDoc, '_id' | 'username' | 'name'> | null): EventActor {
  return user ? { id: user._id, username: user.username, name: user.name } : null;
}

export function userEvent(
  origin: EventOrigin,
  type: string,
  actor: EventActor,
  user: UserDoc,
): EventEnvelope {
  return createEvent(origin, {
    type,
    actor,
    data: {
      userId: user._id,
      username: user.username,
      name: user.name,
      state: user.state,
      email: user.email,
      emails: user.emails,
      isAdmin: user.isAdmin,
    },
  });
}

export function userDestroyedEvent(
  origin: EventOrigin,
  actor: EventActor,
  user: UserDoc,
  hardDelete: boolean,
): EventEnvelope {
  return createEvent(origin, {
    type: EVENT_TYPES.identity.userDestroyed,
    actor,
    data: { userId: user._id, username: user.username, hardDelete },
  });
}

/** `revision`: see revisions.ts; only on changes that can take access away. */
export function groupEvent(
  origin: EventOrigin,
  type: string,
  actor: EventActor,
  group: NamespaceDoc,
  revision?: number,
): EventEnvelope {
  return createEvent(origin, {
    type,
    actor,
    groupId: group._id,
    data: {
      groupId: group._id,
      name: group.name,
      path: group.path,
      fullPath: group.fullPath,
      parentId: group.parentId,
      ancestorGroupIds: group.ancestorIds,
      visibility: group.visibility,
      ...(revision === undefined ? {} : { revision }),
    },
  });
}

export function projectEvent(
  origin: EventOrigin,
  type: string,
  actor: EventActor,
  project: ProjectDoc,
  revision?: number,
): EventEnvelope {
  return createEvent(origin, {
    type,
    actor,
    projectId: project._id,
    groupId: project.namespaceKind === 'group' ? project.namespaceId : null,
    data: {
      projectId: project._id,
      name: project.name,
      path: project.path,
      fullPath: project.fullPath,
      namespaceId: project.namespaceId,
      ancestorGroupIds: project.ancestorGroupIds,
      visibility: project.visibility,
      ...(revision === undefined ? {} : { revision }),
      features: featureLevels(project),
    },
  });
}

export function memberEvent(
  origin: EventOrigin,
  type: string,
  actor: EventActor,
  member: MemberDoc,
  revision: number,
): EventEnvelope {
  return createEvent(origin, {
    type,
    actor,
    projectId: member.sourceType === 'project' ? member.sourceId : null,
    groupId: member.sourceType === 'group' ? member.sourceId : null,
    data: {
      sourceType: member.sourceType,
      sourceId: member.sourceId,
      userId: member.userId,
      accessLevel: member.accessLevel,
      expiresAt: member.expiresAt,
      revision,
    },
  });
}

/**
 * A membership removed because it expired (expired-members.ts). Its id is derived from the membership's
 * (member ids are never reused), so every attempt at one expiry, by racing gateway replicas or a retry
 * after a crash, writes the same outbox entry and the broker drops any repeat by message id.
 */
export function memberExpiredEvent(
  origin: EventOrigin,
  actor: EventActor,
  member: MemberDoc,
  revision: number,
): EventEnvelope {
  const event = memberEvent(origin, EVENT_TYPES.identity.memberExpired, actor, member, revision);
  return { ...event, id: nameBasedUuid(`${EVENT_TYPES.identity.memberExpired}:${member._id}`) };
}

/** A UUID from a name (RFC 4122 version 5 layout, from SHA-256 rather than SHA-1). */
function nameBasedUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export { EVENT_TYPES };
