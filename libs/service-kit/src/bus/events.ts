import { randomUUID } from 'node:crypto';
import type { EventActor, EventEnvelope } from '@gl/contracts';

export interface DomainEventInput {
  type: string;
  version?: number;
  actor: EventActor;
  projectId?: number | null;
  groupId?: number | null;
  data: Record<string, unknown>;
}

export interface EventOrigin {
  producer: string;
  correlationId: string | null;
}

/** Builds the envelope at the moment of the write, so its id is fixed before anything is stored. */
export function createEvent(origin: EventOrigin, input: DomainEventInput): EventEnvelope {
  return {
    id: randomUUID(),
    type: input.type,
    version: input.version ?? 1,
    occurredAt: new Date().toISOString(),
    producer: origin.producer,
    correlationId: origin.correlationId,
    actor: input.actor,
    projectId: input.projectId ?? null,
    groupId: input.groupId ?? null,
    data: input.data,
  };
}
