import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { EVENT_STREAM, STREAM_SUBJECTS, type EventEnvelope } from '@gl/contracts';
import type { Logger } from 'pino';
import { isLeaderless, whileUnavailable } from './cluster-waits';
import { forgetMaxPayload, trackMaxPayload } from './payload-limit';
import { DEFAULT_STREAM_LIMITS, changedLimits, limitsConfig, type StreamLimits } from './stream-limits';

export interface Bus {
  readonly connection: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** Publishes one event and resolves once JetStream has stored it (de-duplicated by event id). */
  publish(event: EventEnvelope): Promise<void>;
  ensureConsumer(durable: string, filterSubjects: string[]): Promise<void>;
  /** Registers a callback fired after the client reconnects (the broker may have lost unsynced data). */
  onReconnect(listener: () => void): void;
  isConnected(): boolean;
  close(): Promise<void>;
}

export interface BusOptions {
  /**
   * Copies JetStream keeps of the event stream when this process creates it: 1 on a single server, 3 on a
   * three-node cluster (NATS_STREAM_REPLICAS), so the stream survives the loss of one node.
   */
  streamReplicas?: number;
  /**
   * The stream's maximum age and size (NATS_STREAM_MAX_AGE, NATS_STREAM_MAX_BYTES). Given, they are also
   * applied to an existing stream whose limits differ (the services, which share one configuration);
   * without them a missing stream is created with DEFAULT_STREAM_LIMITS and an existing one is left as it
   * is (tools and tests, which must not change what the deployment set).
   */
  streamLimits?: StreamLimits;
}

/**
 * How long a starting process waits for JetStream to answer: a cluster started with the services (compose
 * profile `ha`) has no meta leader, or too few nodes for the stream's replicas, for its first seconds.
 */
const STARTUP_WAIT_MS = 60_000;
/** After a reconnect: the node we were on is gone, and its streams and consumers elect new leaders. */
const RECONNECT_WAIT_MS = 30_000;
/**
 * How long one publish retries while the stream has no leader. When the node leading the stream dies, its
 * subject has no responders until the survivors notice and elect another: nats-server's Raft waits a random
 * 4 to 9 s without heartbeats before it calls an election. Failing at once would fail the outbox relay's
 * pass and pause it for seconds more after every election, and fail a direct publisher's call outright.
 */
const PUBLISH_ELECTION_WAIT_MS = 12_000;

/** `nats://a:4222,nats://b:4222`: every server of a cluster, so the client can fail over between them. */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

export async function connectBus(
  url: string,
  name: string,
  logger: Logger,
  options: BusOptions = {},
): Promise<Bus> {
  const connection = await connect({
    servers: natsServers(url),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: false,
    // Every request (a JetStream publish, a KV put, an ackAck) otherwise captures a stack up front for
    // the error it may end in: about 1 % of a busy service's CPU (a --cpu-prof of the mixed bench). Errors
    // keep their type and message.
    noAsyncTraces: true,
  });
  // The outbox refuses to store an event larger than this (payload-limit.ts); a reconnect may reach a
  // server with another limit.
  trackMaxPayload(connection, connection.info?.max_payload);
  void connection.closed().then(() => forgetMaxPayload(connection));
  const ensure = (waitMs: number): Promise<void> =>
    whileUnavailable(() => ensureStream(jsm, options.streamReplicas ?? 1, options.streamLimits, logger), {
      waitMs,
      what: 'event stream',
      logger,
    });
  // No API check here: it fails like ensureStream does while a cluster forms, and ensureStream waits.
  const jsm = await jetstreamManager(connection, { checkAPI: false });
  try {
    await ensure(STARTUP_WAIT_MS);
  } catch (err) {
    // Else the connection would go on reconnecting in the background, and the caller, who never got a
    // Bus, could not close it: a process that fails here would not exit.
    await connection.close().catch(() => undefined);
    throw err;
  }
  const js = jetstream(connection);
  const reconnectListeners: (() => void)[] = [];
  // The client keeps the server's info while it reconnects, so that alone does not tell a live connection.
  let connected = true;

  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        connected = false;
        logger.warn({ status: status.type }, 'bus disconnected');
      }
      if (status.type === 'reconnect') {
        connected = true;
        logger.info('bus reconnected');
        trackMaxPayload(connection, connection.info?.max_payload);
        // A restarted broker may have lost its stream definition together with unsynced data.
        await ensure(RECONNECT_WAIT_MS).catch((err: unknown) =>
          logger.error({ err }, 'stream re-creation failed'),
        );
        for (const listener of reconnectListeners) listener();
      }
    }
  })();

  return {
    connection,
    js,
    jsm,
    async publish(event) {
      const data = JSON.stringify(event);
      // Safe to send again: JetStream drops a repeated msgID within its duplicate window.
      await whileUnavailable(() => js.publish(event.type, data, { msgID: event.id, timeout: 5_000 }), {
        waitMs: PUBLISH_ELECTION_WAIT_MS,
        what: 'publish',
        retryOn: isLeaderless,
      });
    },
    async ensureConsumer(durable, filterSubjects) {
      const config = {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: nanos(30_000),
        max_deliver: -1,
        ...(filterSubjects.length === 1
          ? { filter_subject: filterSubjects[0] }
          : { filter_subjects: filterSubjects }),
      };
      // A process (re)started while its cluster elects leaders waits for them, instead of failing its
      // start; only a consumer that is not there is added (not one whose info timed out meanwhile).
      await whileUnavailable(
        async () => {
          try {
            await jsm.consumers.info(EVENT_STREAM, durable);
          } catch (err) {
            if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound))
              throw err;
            await jsm.consumers.add(EVENT_STREAM, config);
            return;
          }
          await jsm.consumers.update(EVENT_STREAM, durable, config);
        },
        { waitMs: STARTUP_WAIT_MS, what: `consumer ${durable}`, logger },
      );
    },
    onReconnect(listener) {
      reconnectListeners.push(listener);
    },
    isConnected() {
      return connected && !connection.isClosed() && connection.info !== undefined;
    },
    async close() {
      if (!connection.isClosed()) await connection.drain();
    },
  };
}

async function ensureStream(
  jsm: JetStreamManager,
  replicas: number,
  limits: StreamLimits | undefined,
  logger: Logger,
): Promise<void> {
  const config = {
    name: EVENT_STREAM,
    num_replicas: replicas,
    subjects: STREAM_SUBJECTS,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    ...limitsConfig(limits ?? DEFAULT_STREAM_LIMITS),
  };
  let existing;
  try {
    existing = await jsm.streams.info(EVENT_STREAM);
  } catch (err) {
    // Only a stream that is not there is created. Any other failure (JetStream unavailable while a cluster
    // elects a leader) is thrown for the caller to wait out: an `add` then would only fail the same way.
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err;
    try {
      await jsm.streams.add(config);
    } catch (err) {
      // Another service created it between our info and add.
      await jsm.streams.info(EVENT_STREAM).catch(() => {
        throw explainRefusal(err);
      });
    }
    return;
  }
  // A stream made by an older build may lack subjects added since (commands): publishing them would fail.
  const missing = STREAM_SUBJECTS.filter((s) => !existing.config.subjects.includes(s));
  const changed = limits ? changedLimits(existing.config, limits) : [];
  if (missing.length === 0 && changed.length === 0) return;
  if (changed.length > 0) {
    logger.info(
      { stream: EVENT_STREAM, changed, maxAgeMs: limits?.maxAgeMs, maxBytes: limits?.maxBytes },
      'applying the event stream limits',
    );
  }
  await jsm.streams
    .update(EVENT_STREAM, {
      ...existing.config,
      subjects: [...existing.config.subjects, ...missing],
      ...(limits ? limitsConfig(limits) : {}),
    })
    .catch((err: unknown) => {
      throw explainRefusal(err);
    });
}

/** JetStream reserves max_bytes on its disk up front; name the setting when the server has less room. */
function explainRefusal(err: unknown): unknown {
  if (err instanceof Error && /insufficient (storage )?resources/i.test(err.message)) {
    return new Error(
      `the broker refused the ${EVENT_STREAM} stream's size limit (${err.message}): JetStream reserves ` +
        'NATS_STREAM_MAX_BYTES on its disk; lower it or give the broker more storage',
      { cause: err },
    );
  }
  return err;
}
