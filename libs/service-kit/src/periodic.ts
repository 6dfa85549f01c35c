/**
 * How long after start a background job's first run waits. At start the local database learns its
 * fields' shapes in the background (FerretDB patch 0009), and until then a range read on a field is
 * answered by reading the whole table: a job that sweeps by a range (retention, expiry) would pay that on
 * a large table at every restart, for work that is never urgent.
 */
export const FIRST_RUN_DELAY_MS = 60_000;

/**
 * Runs `tick` every `intervalMs`, the first time after `min(intervalMs, firstDelayMs)`. The timers do not
 * keep the process alive. Returns the function that stops them.
 */
export function runPeriodically(
  tick: () => void,
  intervalMs: number,
  firstDelayMs = FIRST_RUN_DELAY_MS,
): () => void {
  let interval: NodeJS.Timeout | null = null;
  const first = setTimeout(
    () => {
      tick();
      interval = setInterval(tick, intervalMs);
      interval.unref();
    },
    Math.min(intervalMs, firstDelayMs),
  );
  first.unref();
  return () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}

/** A background job: one pass at a time, run on demand and periodically. */
export interface BackgroundJob<T> {
  /** Runs a pass after any pass under way or asked for before; resolves its result. */
  runOnce(): Promise<T>;
  /** Starts a pass soon (there is work); a failure is logged and left to the next pass. */
  wake(): void;
  /** Passes every `intervalMs`, the first after min(intervalMs, FIRST_RUN_DELAY_MS) (runPeriodically). */
  start(): void;
  /** Stops the periodic passes and waits for the pass under way. */
  stop(): Promise<void>;
}

/**
 * A resumable job's driver: `pass` does what is recorded as left to do, so a pass cut short (a crash, a
 * failure) is finished by the next one, woken by the event that records work or by the periodic pass.
 * Passes never overlap within a process; replicas each run theirs, so `pass` must be safe beside itself.
 */
export function createBackgroundJob<T>(
  pass: () => Promise<T>,
  options: {
    intervalMs: number;
    logger: { error(fields: object, message: string): void };
    /** The log message of a failed pass. */
    failure: string;
    /** Run on stop, before waiting for the pass under way (the job's own timers). */
    onStop?: () => void;
    /**
     * Run after each pass that changed something (resolved a number above 0, or anything else truthy):
     * a job that rewrites what the API answers bumps its service's resource version here, as a write does.
     */
    afterChange?: () => Promise<void>;
  },
): BackgroundJob<T> {
  let queue: Promise<unknown> = Promise.resolve();
  let stopTimers: (() => void) | null = null;
  const job: BackgroundJob<T> = {
    runOnce() {
      const next = queue.then(pass).then(async (result) => {
        if (result) await options.afterChange?.();
        return result;
      });
      queue = next.catch(() => undefined);
      return next;
    },
    wake() {
      job.runOnce().catch((err: unknown) => options.logger.error({ err }, options.failure));
    },
    start() {
      stopTimers = runPeriodically(() => job.wake(), options.intervalMs);
    },
    async stop() {
      stopTimers?.();
      stopTimers = null;
      options.onStop?.();
      await queue;
    },
  };
  return job;
}
