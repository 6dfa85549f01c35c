import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

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
}

/** Sets a gauge from a count taken at scrape time; an unreachable database or broker leaves it as it was. */
async function setFrom(gauge: Gauge, count: (() => Promise<number>) | undefined): Promise<void> {
  const value = await count?.().catch(() => undefined);
  if (value !== undefined) gauge.set(value);
}

export function createMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
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
