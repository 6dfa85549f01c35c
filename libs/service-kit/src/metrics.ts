import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ConsumerWindow, StreamState } from './bus/stream-window';

export { consumersBehindWindow, databaseBytes, watchStorage } from './storage-metrics';

/** Prometheus metrics per process: default runtime metrics plus HTTP request counts and latency. */
export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  eventsPublished: Counter<'type'>;
  eventsConsumed: Counter<'durable' | 'outcome'>;
  /** Events the outbox relay set aside after the broker refused them on every try. */
  outboxSetAside: Counter<'type'>;
  /** Set-aside events waiting in `outbox_dead_letters`, counted when scraped (another process may requeue). */
  outboxDeadLetters: Gauge;
  /** Counts the set-aside events for the gauge; the outbox installs it. */
  countDeadLetters?: () => Promise<number>;
  /** Events written with their documents and not yet published (the outbox's backlog), counted when scraped. */
  outboxBacklog: Gauge;
  /** Counts the outbox's backlog for the gauge; the outbox installs it. */
  countOutboxBacklog?: () => Promise<number>;
  /** Messages of each durable consumer not yet acknowledged (stored but undelivered, or in flight). */
  consumerPending: Gauge<'durable'>;
  /** Per durable, how to ask the broker for that number; each running consumer installs its own. */
  pendingOf: Map<string, () => Promise<number>>;
  /** The event stream's messages and bytes, and its limits (0: none), as the broker reports them. */
  streamMessages: Gauge;
  streamBytes: Gauge;
  streamMaxAge: Gauge;
  streamMaxBytes: Gauge;
  /** Reads the stream's state for these gauges; the runtime installs it. */
  streamStateOf?: () => Promise<StreamState>;
  /** Per durable, the age of its oldest unacknowledged message, and whether that is about to leave the stream. */
  consumerOldestUnacked: Gauge<'durable'>;
  consumerBehindWindow: Gauge<'durable'>;
  /** Per durable, how to read where it stands in the stream's window; each running consumer installs its own. */
  windowOf: Map<string, (stream: StreamState) => Promise<ConsumerWindow>>;
  /** Every installed consumer's window, read once for the gauges of one scrape and for readiness. */
  consumerWindows(): Promise<Map<string, ConsumerWindow>>;
  /** The service database's size (data and indexes); the runtime installs how to read it. */
  databaseBytes: Gauge;
  countDatabaseBytes?: () => Promise<number>;
  /** The size of the folder the process's log is written to (GL_LOG_DIR, set by `npm start`). */
  logDirectoryBytes: Gauge;
}

export interface MetricsOptions {
  /** The log folder to measure; unset (containers log to stdout) leaves log_directory_bytes out. */
  logDir?: string;
}

/** Bytes of the files directly in `dir`. */
async function directoryBytes(dir: string): Promise<number> {
  const names = await readdir(dir);
  const sizes = await Promise.all(
    names.map((name) =>
      stat(join(dir, name)).then(
        (s) => (s.isFile() ? s.size : 0),
        () => 0, // removed by a rotation meanwhile
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** One scrape collects every gauge at once; readiness probes come every few seconds. */
const SHARED_READ_MS = 250;

/** A read shared by the calls of the next `ms` (one scrape reads several gauges of the same state). */
function shared<T>(read: () => Promise<T>, ms: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ms) {
      last = { at: now, value: read() };
      last.value.catch(() => (last = undefined));
    }
    return last.value;
  };
}

/** Sets a gauge from a count taken at scrape time; an unreachable database or broker leaves it as it was. */
async function setFrom(gauge: Gauge, count: (() => Promise<number>) | undefined): Promise<void> {
  const value = await count?.().catch(() => undefined);
  if (value !== undefined) gauge.set(value);
}

/** Event-loop delay sampling period (ms) for the `nodejs_eventloop_lag_*` gauges. */
const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics(
  service: string,
  options: MetricsOptions = { logDir: process.env.GL_LOG_DIR || undefined },
): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // prom-client samples event-loop delay with a libuv timer every `eventLoopMonitoringPrecision` ms; its
  // default of 10 woke every process 100 times a second, measured at 4.5 ms of CPU per second per process
  // (most of an idle stack's CPU). At 100 ms the lag gauges still show every stall worth alerting on.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const streamState = shared(async () => {
    if (!metrics.streamStateOf) throw new Error('no stream state reader installed');
    return metrics.streamStateOf();
  }, SHARED_READ_MS);
  const streamGauge = (name: string, help: string, value: (state: StreamState) => number): Gauge =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const state = await streamState().catch(() => undefined);
        if (state) this.set(value(state));
      },
    });
  const metrics: ServiceMetrics = {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route template',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    eventsPublished: new Counter({
      name: 'domain_events_published_total',
      help: 'Domain events acknowledged by JetStream',
      labelNames: ['type'],
      registers: [registry],
    }),
    eventsConsumed: new Counter({
      name: 'domain_events_consumed_total',
      help: 'Domain events handled by durable consumers',
      labelNames: ['durable', 'outcome'],
      registers: [registry],
    }),
    outboxSetAside: new Counter({
      name: 'outbox_events_set_aside_total',
      help: 'Domain events the outbox relay set aside (outbox_dead_letters) after the broker refused them',
      labelNames: ['type'],
      registers: [registry],
    }),
    outboxDeadLetters: new Gauge({
      name: 'outbox_dead_letters',
      help: 'Set-aside domain events waiting to be republished',
      registers: [registry],
      async collect() {
        await setFrom(this, metrics.countDeadLetters);
      },
    }),
    outboxBacklog: new Gauge({
      name: 'outbox_backlog',
      help: 'Domain events stored with their writes and not yet published to the broker',
      registers: [registry],
      async collect() {
        await setFrom(this, metrics.countOutboxBacklog);
      },
    }),
    consumerPending: new Gauge({
      name: 'consumer_pending_messages',
      help: 'Messages of a durable consumer not yet acknowledged (its lag behind the event stream)',
      labelNames: ['durable'],
      registers: [registry],
      async collect() {
        for (const [durable, pending] of metrics.pendingOf) {
          const value = await pending().catch(() => undefined);
          if (value !== undefined) this.set({ durable }, value);
        }
      },
    }),
    pendingOf: new Map(),
    streamMessages: streamGauge('stream_messages', 'Messages in the event stream', (s) => s.messages),
    streamBytes: streamGauge('stream_bytes', 'Bytes the event stream holds', (s) => s.bytes),
    streamMaxAge: streamGauge(
      'stream_max_age_seconds',
      'The event stream keeps messages this long (0: no limit)',
      (s) => s.maxAgeMs / 1000,
    ),
    streamMaxBytes: streamGauge(
      'stream_max_bytes',
      'The event stream keeps at most this many bytes, discarding the oldest (0: no limit)',
      (s) => s.maxBytes,
    ),
    consumerOldestUnacked: new Gauge({
      name: 'consumer_oldest_unacked_age_seconds',
      help: 'Age of the oldest message a durable consumer has not acknowledged (0: caught up)',
      labelNames: ['durable'],
      registers: [registry],
      async collect() {
        const windows = await metrics.consumerWindows().catch(() => undefined);
        for (const [durable, window] of windows ?? []) this.set({ durable }, window.oldestUnackedAgeSeconds);
      },
    }),
    consumerBehindWindow: new Gauge({
      name: 'consumer_behind_window',
      help: "1 when a durable consumer's oldest unacknowledged message is about to leave the event stream",
      labelNames: ['durable'],
      registers: [registry],
      async collect() {
        const windows = await metrics.consumerWindows().catch(() => undefined);
        for (const [durable, window] of windows ?? []) this.set({ durable }, window.behind ? 1 : 0);
      },
    }),
    windowOf: new Map(),
    consumerWindows: shared(async () => {
      const windows = new Map<string, ConsumerWindow>();
      if (metrics.windowOf.size === 0) return windows;
      const state = await streamState();
      for (const [durable, read] of metrics.windowOf) {
        const window = await read(state).catch(() => undefined);
        if (window) windows.set(durable, window);
      }
      return windows;
    }, SHARED_READ_MS),
    databaseBytes: new Gauge({
      name: 'database_size_bytes',
      help: "The service database's data and indexes, as the database server reports them",
      registers: [registry],
      async collect() {
        await setFrom(this, metrics.countDatabaseBytes);
      },
    }),
    logDirectoryBytes: new Gauge({
      name: 'log_directory_bytes',
      help: 'Bytes in the folder of log files this process writes to (npm start: DATA_DIR/logs)',
      registers: options.logDir ? [registry] : [],
      async collect() {
        const dir = options.logDir;
        if (dir) await setFrom(this, () => directoryBytes(dir));
      },
    }),
  };
  return metrics;
}

export function httpMetricsMiddleware(metrics: ServiceMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // Route templates, never raw paths: raw paths would give one series per id.
      const path = (req.route as { path?: string | RegExp | (string | RegExp)[] } | undefined)?.path;
      const route = path ? `${req.baseUrl}${String(path)}` : 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}
