/**
 * Waiting for work that arrives later (through the bus, a worker, a relay), the two ways tests need it.
 * Both poll; neither asserts on time.
 */

/**
 * Polls `read` until `done` holds or the deadline passes and returns the last value either way, so the
 * caller's assertion shows what was there.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Polls `probe` until it returns a value; throws, naming `what`, when the deadline passes first. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const value = await eventually(probe, (found) => found !== undefined, timeoutMs, intervalMs);
  if (value === undefined) throw new Error(`timed out waiting for ${what}`);
  return value;
}
