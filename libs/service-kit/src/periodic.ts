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
