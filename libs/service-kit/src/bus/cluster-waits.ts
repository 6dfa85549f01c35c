import { JetStreamApiError } from '@nats-io/jetstream';
import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/nats-core';
import type { Logger } from 'pino';

/** JetStream's "no suitable peers for placement": a replicated stream or consumer needs more nodes up. */
const NO_PEERS_CODE = 10005;
/** "Insufficient resources": the stream's max_bytes does not fit a node's storage. Waiting changes nothing. */
const INSUFFICIENT_RESOURCES_CODE = 10023;

/**
 * True when JetStream cannot answer now but may in a moment: a cluster forming or electing a leader
 * (no responders on the subject, timeouts, 503 "temporarily unavailable", too few peers up for the
 * replicas). A refusal of the request itself (bad configuration, no storage) is not.
 */
export function isJetStreamUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // The client wraps "no responders" on a JetStream subject in JetStreamNotEnabled (not exported).
  if (err.name === 'JetStreamNotEnabled' || err instanceof NoRespondersError) return true;
  if (err instanceof TimeoutError) return true;
  if (err instanceof RequestError) return err.isNoResponders() || err.cause instanceof TimeoutError;
  if (err instanceof JetStreamApiError) {
    if (err.code === INSUFFICIENT_RESOURCES_CODE) return false;
    return err.status === 503 || err.code === NO_PEERS_CODE;
  }
  return false;
}

/**
 * True when the stream (or the JetStream API) has no leader to answer right now: nobody listens on the
 * subject (the leader's node is gone and no other has been elected yet) or a 503. An election takes
 * seconds, so these are worth retrying soon; a timeout has already cost its full wait and is not.
 */
export function isLeaderless(err: unknown): boolean {
  return (
    isJetStreamUnavailable(err) &&
    !(err instanceof TimeoutError) &&
    !(err instanceof RequestError && err.cause instanceof TimeoutError)
  );
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `attempt` until it succeeds, retrying while JetStream is unavailable (isJetStreamUnavailable)
 * for at most `waitMs`, with a warning now and then; any other error, or the last one, is thrown.
 */
export async function whileUnavailable<T>(
  attempt: () => Promise<T>,
  options: {
    waitMs: number;
    what: string;
    /** Where to say that it waits; none for calls made by the hundred (publishes). */
    logger?: Logger;
    /** Which errors are worth waiting out (default isJetStreamUnavailable). */
    retryOn?: (err: unknown) => boolean;
  },
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  let lastWarning = 0;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(options.retryOn ?? isJetStreamUnavailable)(err) || Date.now() > deadline) throw err;
      if (options.logger && Date.now() - lastWarning > 5_000) {
        lastWarning = Date.now();
        options.logger.warn(
          { err, tries },
          `${options.what}: JetStream is unavailable (a cluster forming or electing a leader?); waiting`,
        );
      }
      await sleep(Math.min(2_000, 100 * 2 ** Math.min(tries, 5)));
    }
  }
}
