import { eventEnvelope, type EventEnvelope } from '@gl/contracts';

/**
 * The largest message the broker takes is its `max_payload` (NATS INFO; 1 MiB unless configured). An event
 * bigger than that can never be published, so the outbox refuses to store one: the write fails at once,
 * loudly, instead of leaving an event behind that the relay could only set aside.
 */
export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** What a JetStream publish adds to the JSON in headers (`Nats-Msg-Id: <uuid>` and the framing), rounded up. */
export const HEADER_ALLOWANCE = 128;

/** `max_payload` of every connected bus of this process (normally one); the smallest one applies. */
const limits = new Map<object, number>();

export function trackMaxPayload(owner: object, maxPayload: number | undefined): void {
  if (maxPayload !== undefined && maxPayload > 0) limits.set(owner, maxPayload);
}

export function forgetMaxPayload(owner: object): void {
  limits.delete(owner);
}

/** The largest envelope (JSON bytes) this process may store for publishing. */
export function maxEventBytes(): number {
  const smallest = limits.size > 0 ? Math.min(...limits.values()) : DEFAULT_MAX_PAYLOAD;
  return smallest - HEADER_ALLOWANCE;
}

/** A programming error: the event as built cannot be published (too large, or a subject outside the stream). */
export class UnpublishableEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnpublishableEventError';
  }
}

/** The envelope as stored in the outbox, after checking it can be published at all. */
export function encodeEnvelope(envelope: EventEnvelope): string {
  if (!eventEnvelope.shape.type.safeParse(envelope.type).success) {
    throw new UnpublishableEventError(`event type ${JSON.stringify(envelope.type)} is not a valid subject`);
  }
  const json = JSON.stringify(envelope);
  const bytes = Buffer.byteLength(json);
  const limit = maxEventBytes();
  if (bytes > limit) {
    throw new UnpublishableEventError(
      `event ${envelope.type} ${envelope.id} is ${bytes} bytes, over the bus limit of ${limit}: ` +
        'bound its free-text fields (excerpt) where the event data is built',
    );
  }
  return json;
}
