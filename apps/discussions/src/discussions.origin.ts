import type { Request } from 'express';
import type { EventOrigin } from '@gl/service-kit';

/** The `producer` of every event this service publishes. */
export const SERVICE_PRODUCER = 'discussions';

/** Events written by a request carry its request id as correlation id. */
export function originOf(req: Request): EventOrigin {
  return { producer: SERVICE_PRODUCER, correlationId: req.ctx.requestId };
}
