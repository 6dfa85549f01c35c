/**
 * Calls made while an earlier one is on its way (or in the same turn of the event loop) run together as one
 * group, a group commit: `run` takes the group's items and resolves one result per item, in their order.
 * Concurrent callers, say a webhook sender draining sixteen hooks at once, then share one database round
 * trip instead of taking one each, while every caller still resolves only when the run that carried its
 * own item has ended. A run that fails rejects every call of its group; the next group runs regardless.
 *
 * At most one run is in flight, so a group also waits for the one before it: this suits writes whose
 * round trip is short next to the callers' other work, not reads on a latency path.
 */
export function groupedCalls<I, O>(
  run: (items: I[]) => Promise<O[]>,
  maxGroup = 500,
): (item: I) => Promise<O> {
  interface Waiting {
    item: I;
    resolve: (result: O) => void;
    reject: (err: unknown) => void;
  }
  const waiting: Waiting[] = [];
  let inFlight = false;
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    if (inFlight || waiting.length === 0) return;
    const group = waiting.splice(0, maxGroup);
    inFlight = true;
    Promise.resolve()
      .then(() => run(group.map((w) => w.item)))
      .then(
        (results) => group.forEach((w, i) => w.resolve(results[i]!)),
        (err: unknown) => group.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        inFlight = false;
        flush();
      });
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (inFlight || scheduled) return;
      // Calls of this same turn join the group (a pass starting its hooks' drains together).
      scheduled = true;
      setImmediate(flush);
    });
}
