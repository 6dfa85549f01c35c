/**
 * Puts of a key made while an earlier put of it is still on its way share one put that starts after that
 * one: a version bump only has to be stored after the write that asked for it, so under concurrent writes
 * to one project (sixteen alert senders, a burst of comments) a key is put about twice per round trip
 * instead of once per write, each put also being a message to every process that follows the versions.
 * A caller never joins the put already under way: it may have started before the caller's write ended,
 * and a reader tagging its answer between the two would keep the old data under the new version.
 */
export function coalescedPuts(put: (key: string) => Promise<unknown>): (key: string) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const queued = new Map<string, Promise<void>>();

  function start(key: string): Promise<void> {
    const putting = put(key).then(() => undefined);
    running.set(key, putting);
    const done = (): void => {
      if (running.get(key) === putting) running.delete(key);
    };
    putting.then(done, done);
    return putting;
  }

  return (key) => {
    const underWay = running.get(key);
    if (!underWay) return start(key);
    let next = queued.get(key);
    if (!next) {
      next = underWay
        .catch(() => undefined)
        .then(() => {
          queued.delete(key);
          return start(key);
        });
      queued.set(key, next);
    }
    return next;
  };
}
