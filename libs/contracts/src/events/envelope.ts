import { z } from 'zod';

/**
 * Every domain event travels in this envelope. `id` doubles as the JetStream `msgID`, so a republished
 * event is de-duplicated by the broker and consumers can be idempotent by id.
 */
export const eventActor = z
  .object({ id: z.number().int(), username: z.string(), name: z.string() })
  .nullable();

export const eventEnvelope = z.object({
  id: z.string().uuid(),
  // gl.<context>.<object>.<past_verb> for domain events, cmd.<context>.<object>.<verb> for commands.
  type: z.string().regex(/^(gl|cmd)\.[a-z_]+\.[a-z_]+\.[a-z_]+$/),
  version: z.number().int().positive(),
  occurredAt: z.string(),
  producer: z.string(),
  correlationId: z.string().nullable(),
  actor: eventActor,
  projectId: z.number().int().nullable(),
  groupId: z.number().int().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof eventEnvelope>;
export type EventActor = z.infer<typeof eventActor>;
