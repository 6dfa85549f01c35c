import { InvalidArgumentError, InvalidSubjectError, PermissionViolationError } from '@nats-io/nats-core';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';

/** An event the relay will not even try to send (its stored JSON or envelope is broken). */
export class RejectedEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RejectedEventError';
  }
}

/**
 * True when the broker (or the client on its behalf) refused this one message, so sending it again as it
 * is will fail again: over `max_payload` (the client checks against the server's INFO before sending), a
 * subject that is not valid or not allowed, a JetStream 4xx answer such as "message size exceeds maximum
 * allowed". Everything else — timeouts, no responders, closed or reconnecting connections, a stream that
 * is being re-created after a broker restart, JetStream 5xx — says nothing about the message: the broker
 * is unreachable or busy, and the relay keeps retrying without ever setting the event aside.
 */
export function isMessageRejection(err: unknown): boolean {
  if (err instanceof RejectedEventError) return true;
  if (err instanceof InvalidArgumentError || err instanceof InvalidSubjectError) return true;
  if (err instanceof PermissionViolationError) return true;
  if (err instanceof JetStreamApiError) {
    if (err.code === JetStreamApiCodes.StreamNotFound) return false;
    return err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
  }
  return false;
}

/** The reason recorded with a failed attempt: the error's name and message, kept short. */
export function failureReason(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
