import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** Seconds measured, after `warmupSeconds` of discarded load. */
  durationSeconds: number;
  warmupSeconds: number;
  /** Called between the warm-up and the measured run, and after it (CPU sampling). */
  onMeasured?: { start: () => void; end: () => void };
}

export interface Measurement {
  requestsPerSecond: number;
  /** Milliseconds, from every response of the measured run (any status), at 0.01 ms resolution. */
  p50: number;
  p99: number;
  completed: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  seconds: number;
}

let current: autocannon.Instance | undefined;
let stopped = false;

/** Stops the run in progress, if any, and refuses to start another (SIGINT). */
export function stopLoad(): void {
  stopped = true;
  current?.stop();
}

/** Whether SIGINT asked the load to stop (for load generators other than autocannon's). */
export const isLoadStopped = (): boolean => stopped;

/** One bounded autocannon run; a guard stops it if it overruns its duration by 30 s. */
async function run(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  onLatency?: (ms: number) => void,
): Promise<autocannon.Result> {
  if (stopped) throw new Error('interrupted');
  const instance = autocannon({ url, headers, connections, pipelining: 1, duration: seconds, timeout: 10 });
  current = instance;
  if (onLatency) instance.on('response', (_client, _status, _bytes, ms) => onLatency(ms));
  const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1_000);
  try {
    const result = await instance;
    if (stopped) throw new Error('interrupted');
    return result;
  } finally {
    clearTimeout(guard);
    current = undefined;
  }
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * Warm-up, then the measured run. autocannon's own latency histogram has 1 ms resolution, too coarse for
 * sub-millisecond answers, so percentiles come from the raw response times it reports per response.
 */
export async function measure(
  url: string,
  headers: Record<string, string>,
  options: LoadOptions,
): Promise<Measurement> {
  if (options.warmupSeconds > 0) await run(url, headers, options.connections, options.warmupSeconds);
  const latencies: number[] = [];
  options.onMeasured?.start();
  const result = await run(url, headers, options.connections, options.durationSeconds, (ms) => {
    latencies.push(ms);
  });
  options.onMeasured?.end();
  const sorted = Float64Array.from(latencies).sort();
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]),
  );
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    completed: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    seconds: result.duration,
  };
}
