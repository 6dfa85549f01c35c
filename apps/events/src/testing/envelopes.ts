import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TYPES,
  activityEventEntity,
  type BranchPushedData,
  type EventActor,
  type EventEnvelope,
  type NoteCreatedData,
  type TargetEventData,
} from '@gl/contracts';
import { groupEventFields, projectEventFields, testPrincipal, userEventFields } from '@gl/testing';

/** Domain events as their publishers build them, for feeding the activity log in tests. */
export interface EnvelopeInput {
  type: string;
  actor?: EventActor;
  projectId?: number | null;
  groupId?: number | null;
  data: Record<string, unknown>;
  occurredAt?: string;
  correlationId?: string | null;
}

export const ACTOR = { id: 2, username: 'owner', name: 'Owner' };

export function envelope(input: EnvelopeInput): EventEnvelope {
  return {
    id: randomUUID(),
    type: input.type,
    version: 1,
    occurredAt: input.occurredAt ?? new Date().toISOString(),
    producer: input.type.split('.')[1] ?? 'test',
    correlationId: input.correlationId === undefined ? randomUUID() : input.correlationId,
    actor: input.actor === undefined ? ACTOR : input.actor,
    projectId: input.projectId ?? null,
    groupId: input.groupId ?? null,
    data: input.data,
  };
}

/** The identity and discussions event types the specs feed most. */
export const ID = EVENT_TYPES.identity;
export const D = DOMAIN_EVENT_TYPES.discussions;

/** The activity lists' answer, as the specs parse it. */
export const activityList = z.array(activityEventEntity);

/** A user as the gateway signs them, and as their events name them. */
export function person(id: number, username: string) {
  return {
    principal: testPrincipal({ id, username, name: username }),
    actor: { id, username, name: username },
  };
}

/** What identity events carry besides their data: the request that wrote them and the gateway's revision. */
interface IdentityEventOptions {
  correlationId?: string;
  /** The gateway's identity revision (visibility changes, removals, membership changes). */
  revision?: number;
}

export function userCreated(userId: number, username: string, name = username): EventEnvelope {
  return envelope({
    type: ID.userCreated,
    data: userEventFields({ id: userId, username, name }),
  });
}

export function projectEvent(
  type: string,
  projectId: number,
  options: IdentityEventOptions & {
    visibility?: string;
    ancestorGroupIds?: number[];
    actor?: EventActor;
  } = {},
): EventEnvelope {
  return envelope({
    type,
    actor: options.actor,
    projectId,
    correlationId: options.correlationId,
    data: projectEventFields(projectId, options),
  });
}

export function groupEvent(
  type: string,
  groupId: number,
  visibility = 'private',
  ancestorGroupIds: number[] = [],
) {
  return envelope({
    type,
    groupId,
    data: groupEventFields(groupId, { visibility, ancestorGroupIds }),
  });
}

export function memberEvent(
  type: string,
  sourceType: 'group' | 'project',
  sourceId: number,
  userId: number,
  options: IdentityEventOptions & { accessLevel?: number; expiresAt?: string | null } = {},
): EventEnvelope {
  return envelope({
    type,
    projectId: sourceType === 'project' ? sourceId : null,
    groupId: sourceType === 'group' ? sourceId : null,
    correlationId: options.correlationId,
    data: {
      sourceType,
      sourceId,
      userId,
      accessLevel: options.accessLevel ?? 30,
      expiresAt: options.expiresAt ?? null,
      ...(options.revision === undefined ? {} : { revision: options.revision }),
    },
  });
}

export function targetEvent(
  type: string,
  projectId: number | null,
  data: TargetEventData,
  options: { actor?: EventActor; groupId?: number | null; occurredAt?: string } = {},
): EventEnvelope {
  return envelope({
    type,
    projectId,
    groupId: options.groupId,
    actor: options.actor,
    occurredAt: options.occurredAt,
    data,
  });
}

export function noteCreated(projectId: number, overrides: Partial<NoteCreatedData> = {}): EventEnvelope {
  const data: NoteCreatedData = {
    noteId: 501,
    noteType: null,
    discussionId: 'a'.repeat(40),
    body: 'Looks good',
    system: false,
    createdAt: '2026-01-02T03:04:05.000Z',
    noteableType: 'Issue',
    noteableId: 77,
    noteableIid: 3,
    commitId: null,
    targetTitle: 'Broken build',
    ...overrides,
  };
  return envelope({ type: D.noteCreated, projectId, data });
}

export function branchPushed(projectId: number, overrides: Partial<BranchPushedData> = {}): EventEnvelope {
  const data: BranchPushedData = {
    ref: 'main',
    refType: 'branch',
    action: 'pushed',
    commitCount: 1,
    commitFrom: '1'.repeat(40),
    commitTo: '2'.repeat(40),
    commitTitle: 'Fix it',
    ...overrides,
  };
  return envelope({ type: D.branchPushed, projectId, data });
}
