import type { EventEnvelope } from './envelope';

/**
 * An event a tool publishes itself (a bench, a fault test) as the seeded root (id 1) did it in a project:
 * no request behind it, no group. `id` is the caller's (a UUID: contracts import nothing but zod).
 */
export function rootEvent(fields: {
  id: string;
  type: string;
  producer: string;
  projectId: number;
  data: EventEnvelope['data'];
}): EventEnvelope {
  return {
    id: fields.id,
    type: fields.type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: fields.producer,
    correlationId: null,
    actor: { id: 1, username: 'root', name: 'Administrator' },
    projectId: fields.projectId,
    groupId: null,
    data: fields.data,
  };
}
