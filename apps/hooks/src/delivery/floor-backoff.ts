/**
 * The wait before the sender's next pass while a hook's deliveries wait for the ack floor (ack-floor.ts).
 * A killed replica's messages hold the floor until JetStream redelivers them (the ack wait, about 30 s):
 * polling JetStream's consumer info every `baseMs` all that time cost about 40 reads a second per replica
 * for nothing. So the wait doubles while the floor stays where it was, up to `maxMs`, and is back at
 * `baseMs` as soon as it moves (the common case: another replica's batch acknowledged a moment later).
 */
export function createFloorBackoff(baseMs: number, maxMs: number) {
  let delay = baseMs;
  let floor: number | null = null;
  return {
    /** A pass saw the floor at `seen` and left deliveries waiting for it: the wait before the next pass. */
    held(seen: number): number {
      if (seen !== floor) {
        floor = seen;
        delay = baseMs;
      }
      const wait = delay;
      delay = Math.min(delay * 2, Math.max(maxMs, baseMs));
      return wait;
    },
    /** Nothing waits for the floor, or deliveries were just acknowledged: the next wait is `baseMs`. */
    reset(): void {
      delay = baseMs;
      floor = null;
    },
  };
}
