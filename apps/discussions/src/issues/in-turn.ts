/** Per key, the end of this process's queue of callers (see inTurn). */
const queueTails = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after every earlier call for the same key in this process has settled: callers of one
 * process queue here instead of racing each other in the database (a scope's lease, its end position).
 */
export function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queueTails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queueTails.set(key, tail);
  void tail.then(() => {
    if (queueTails.get(key) === tail) queueTails.delete(key);
  });
  return run;
}
