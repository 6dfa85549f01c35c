/**
 * What the next relay pass reads. A write names the model it wrote (`kick(model)`), so the pass after a
 * comment reads the notes collection alone instead of every registered collection and the `outbox` queue:
 * most passes follow one write, and each collection read is a database round trip. Anything the caller
 * cannot name (the safety sweep, a retry that came due, a reconnect, a failed pass, a backlog) reads all.
 */
export interface PassTargets {
  /** Model names to read, or every registered model. */
  models: 'all' | ReadonlySet<string>;
  /** Whether to read the `outbox` queue (events of deletes, and deletes cut short). */
  queue: boolean;
}

export interface RelayTargets {
  everything(): void;
  model(name: string): void;
  queue(): void;
  /** The targets gathered since the last take, which start over empty. */
  take(): PassTargets;
}

export function createRelayTargets(): RelayTargets {
  // The first pass after start reads everything: another process may have left events behind.
  let models: 'all' | Set<string> = 'all';
  let queue = true;
  return {
    everything() {
      models = 'all';
      queue = true;
    },
    model(name) {
      if (models !== 'all') models.add(name);
    },
    queue() {
      queue = true;
    },
    take() {
      const taken: PassTargets = { models, queue };
      models = new Set();
      queue = false;
      return taken;
    },
  };
}
