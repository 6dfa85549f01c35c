// The part of autocannon 8's programmatic API the bench uses (the package ships no type declarations).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Per-request timeout, seconds. */
      timeout?: number;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      /** Seconds actually run. */
      duration: number;
      errors: number;
      timeouts: number;
      resets: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** Per-second samples; `total` is the number of completed requests. */
      requests: Histogram & { sent: number };
      latency: Histogram;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
      ): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
