import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile, roundTenth } from './stats';

/**
 * Webhook receivers for the hooks scenario: one HTTP server per hook on 127.0.0.1, each noting when a
 * request arrived and the headers GitLab's WebHookService#build_headers sends to tell deliveries apart
 * (`X-Gitlab-Event-UUID`: the event; `Idempotency-Key`: the delivery, the same across its retries).
 */
export interface Arrival {
  hook: number;
  eventId: string;
  key: string;
  /** Date.now() when the request's headers arrived. */
  at: number;
}

export interface Receivers {
  urls: string[];
  arrivals: Arrival[];
  close(): Promise<void>;
}

export async function startReceivers(count: number): Promise<Receivers> {
  const arrivals: Arrival[] = [];
  const servers: Server[] = [];
  const urls: string[] = [];
  for (let hook = 0; hook < count; hook++) {
    const server = createServer((req, res) => {
      const at = Date.now();
      req.resume();
      req.on('end', () => {
        arrivals.push({
          hook,
          eventId: String(req.headers['x-gitlab-event-uuid'] ?? ''),
          key: String(req.headers['idempotency-key'] ?? ''),
          at,
        });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/${hook}`);
  }
  return {
    urls,
    arrivals,
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((done) => {
              server.closeAllConnections();
              server.close(() => done());
            }),
        ),
      ).then(() => undefined),
  };
}

/** An event the bench published: the hook it reaches, its place in that hook's order, when it happened. */
export interface Sent {
  hook: number;
  sequence: number;
  occurredAtMs: number;
}

export interface DeliveryFigures {
  sent: number;
  /** Events that reached their receiver at least once. */
  delivered: number;
  missing: number;
  /** Requests repeating an Idempotency-Key already received (at-least-once redeliveries). */
  duplicates: number;
  /** Requests of an event already received under another Idempotency-Key (a second delivery: a defect). */
  unkeyedDuplicates: number;
  /** First arrivals of an event older (in its hook's order) than one the hook had received before. */
  orderViolations: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** First arrivals per second, from the first event's time to the last arrival. */
  deliveriesPerSecond: number;
}

/**
 * The figures of a run from what was sent and what arrived: latency is the receiver's arrival time minus
 * the event's occurredAt (first arrival of each event); arrivals of events the bench did not send (the
 * set-up's own comments) are left out.
 */
export function deliveryFigures(sent: Map<string, Sent>, arrivals: Arrival[]): DeliveryFigures {
  const keys = new Set<string>();
  const events = new Set<string>();
  const lastSequence = new Map<number, number>();
  const latencies: number[] = [];
  let duplicates = 0;
  let unkeyedDuplicates = 0;
  let orderViolations = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const arrival of arrivals) {
    const event = sent.get(arrival.eventId);
    if (!event) continue;
    first = Math.min(first, event.occurredAtMs);
    last = Math.max(last, arrival.at);
    if (keys.has(arrival.key)) {
      duplicates += 1;
      continue;
    }
    keys.add(arrival.key);
    if (events.has(arrival.eventId)) {
      unkeyedDuplicates += 1;
      continue;
    }
    events.add(arrival.eventId);
    latencies.push(arrival.at - event.occurredAtMs);
    if ((lastSequence.get(event.hook) ?? -1) > event.sequence) orderViolations += 1;
    else lastSequence.set(event.hook, event.sequence);
  }
  latencies.sort((a, b) => a - b);
  const seconds = (last - first) / 1_000;
  return {
    sent: sent.size,
    delivered: events.size,
    missing: sent.size - events.size,
    duplicates,
    unkeyedDuplicates,
    orderViolations,
    p50Ms: roundTenth(percentile(latencies, 50)),
    p90Ms: roundTenth(percentile(latencies, 90)),
    p99Ms: roundTenth(percentile(latencies, 99)),
    maxMs: roundTenth(latencies[latencies.length - 1] ?? 0),
    deliveriesPerSecond: seconds > 0 ? roundTenth(events.size / seconds) : 0,
  };
}
