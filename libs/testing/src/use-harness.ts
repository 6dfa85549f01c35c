/**
 * A harness for one describe block (or a whole spec file): started in `beforeAll`, closed in `afterAll`.
 * Returns a stand-in that reads through to the started harness, so a spec writes
 * `const h = useHarness(startBoardsHarness);` instead of a `let`, a `beforeAll` and an `afterAll`.
 * Touching it outside a test or a later hook (before the harness started) throws, naming the mistake.
 */
export function useHarness<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await start();
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (current === undefined) throw new Error(`harness used outside its tests (reading ${String(key)})`);
      const value = current[key as keyof T] as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
    has(_target, key) {
      return current !== undefined && key in current;
    },
  });
}
