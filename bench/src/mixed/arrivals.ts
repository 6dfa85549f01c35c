import { Agent, request } from 'node:http';
import type { PlannedRequest } from './mix';

/**
 * The open-model load: request n of a step starts at t0 + n / rate whatever happened to the ones before
 * it, so a slow answer never slows the schedule (a closed loop of clients would wait for it and hide the
 * slowness behind a lower rate). Requests go over node:http with keep-alive, cheaper per request than
 * fetch on the two cores the stack shares with this generator. Bounded: at most `maxInFlight` requests
 * open (past it a start counts as dropped, a failure), each given up after `timeoutMs`.
 */
export interface Outcome {
  kind: number;
  /** The status, or 0 when there was no answer (error, timeout, dropped). */
  status: number;
  ok: boolean;
  /** Milliseconds from sending to the answer's first byte (its status line and headers). */
  ttfbMs: number;
  /** When the whole answer was read, ms since the step started. */
  doneAtMs: number;
  /** How late the generator started it, ms after its scheduled time. */
  lateMs: number;
  error?: string;
}

export interface StepPlan {
  origin: URL;
  rate: number;
  seconds: number;
  next: (serial: number) => { kind: number; request: PlannedRequest };
  maxInFlight: number;
  timeoutMs: number;
  isStopped: () => boolean;
}

const agent = new Agent({ keepAlive: true, maxSockets: 512 });

/** One request; resolves its status (0: no answer) and time to first byte, never rejects. */
export function send(
  origin: URL,
  planned: PlannedRequest,
  timeoutMs: number,
): Promise<{ status: number; ttfbMs: number; error?: string }> {
  return new Promise((done) => {
    const started = performance.now();
    let ttfbMs = Number.NaN;
    const req = request(
      {
        host: origin.hostname,
        port: origin.port,
        method: planned.method,
        path: planned.path,
        headers: planned.body
          ? { ...planned.headers, 'Content-Length': Buffer.byteLength(planned.body) }
          : planned.headers,
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        ttfbMs = performance.now() - started;
        res.on('data', () => undefined);
        res.on('end', () => done({ status: res.statusCode ?? 0, ttfbMs }));
        res.on('error', (err) => done({ status: 0, ttfbMs, error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => done({ status: 0, ttfbMs, error: err.message }));
    req.end(planned.body);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs one step of the schedule and resolves every request's outcome once all have answered or failed. */
export async function runArrivals(plan: StepPlan): Promise<{ outcomes: Outcome[]; scheduled: number }> {
  const total = Math.round(plan.rate * plan.seconds);
  const interval = 1_000 / plan.rate;
  const outcomes: Outcome[] = [];
  const open = new Set<Promise<void>>();
  const t0 = performance.now();
  let n = 0;
  while (n < total && !plan.isStopped()) {
    const now = performance.now();
    // Every request whose time has come starts now, so a stalled timer catches up instead of slipping.
    while (n < total && t0 + n * interval <= now) {
      const lateMs = now - (t0 + n * interval);
      const { kind, request: planned } = plan.next(n);
      n++;
      if (open.size >= plan.maxInFlight) {
        outcomes.push({
          kind,
          status: 0,
          ok: false,
          ttfbMs: Number.NaN,
          doneAtMs: now - t0,
          lateMs,
          error: 'dropped',
        });
        continue;
      }
      const flight = send(plan.origin, planned, plan.timeoutMs).then((answer) => {
        outcomes.push({
          kind,
          status: answer.status,
          ok: answer.status === planned.expect,
          ttfbMs: answer.ttfbMs,
          doneAtMs: performance.now() - t0,
          lateMs,
          error: answer.error,
        });
        open.delete(flight);
      });
      open.add(flight);
    }
    // Sleeps even when the next start is under a millisecond away: spinning on setImmediate until then
    // burned up to 1 ms of a core per request (0.7 ms per request at 150 req/s, on the cores the stack
    // shares); a start now comes at most a timer tick late, and `lateMs` records it.
    const wait = t0 + n * interval - performance.now();
    await sleep(Math.max(0, Math.min(wait, 20)));
  }
  await Promise.all(open);
  return { outcomes, scheduled: n };
}

/** Closes the keep-alive sockets so the process can end. */
export function closeArrivals(): void {
  agent.destroy();
}
