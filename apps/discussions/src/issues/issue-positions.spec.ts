import { createIssuePositions, type PositionsPort } from './issue-positions';
import type { PositionMove } from './positions.store';
import { IDEAL_DISTANCE, START_POSITION } from './relative-position';

/**
 * The positions store in memory, with the same contract as positions.store.ts (claims, compare-and-set,
 * moveMany in rounds), counting every issue position written.
 */
function memoryStore() {
  const position = new Map<number, number | null>();
  const claims = new Map<string, number>();
  let writes = 0;
  const key = (scope: string, p: number) => `${scope}:${p}`;
  const sorted = () =>
    [...position.entries()].filter((e): e is [number, number] => e[1] !== null).sort((a, b) => a[1] - b[1]);
  const store: PositionsPort = {
    async claim(scope, p, id) {
      if (claims.has(key(scope, p))) return false;
      claims.set(key(scope, p), id);
      return true;
    },
    async release(scope, ps) {
      for (const p of ps) claims.delete(key(scope, p));
    },
    async highestClaim(scope) {
      const mine = [...claims.keys()].filter((k) => k.startsWith(`${scope}:`));
      return mine.length ? Math.max(...mine.map((k) => Number(k.slice(scope.length + 1)))) : null;
    },
    async setPosition(id, _scope, from, to) {
      if ((position.get(id) ?? null) !== from) return false;
      position.set(id, to);
      writes++;
      return true;
    },
    async neighbour(_scope, p, direction, except) {
      const list = sorted().filter(([id]) => id !== except);
      const found = direction === 1 ? list.find(([, q]) => q > p) : list.reverse().find(([, q]) => q < p);
      return found ? { _id: found[0], relativePosition: found[1] } : null;
    },
    async countIn(_scope, low, high) {
      return sorted().filter(([, p]) => p >= low && p <= high).length;
    },
    async issuesIn(_scope, low, high) {
      return sorted()
        .filter(([, p]) => p >= low && p <= high)
        .map(([id, p]) => ({ _id: id, relativePosition: p }));
    },
    async moveMany(scope, moves: PositionMove[]) {
      let pending = moves.filter((m) => m.from !== m.to);
      while (pending.length) {
        const claimed: PositionMove[] = [];
        for (const m of pending) if (await store.claim(scope, m.to, m.id)) claimed.push(m);
        if (!claimed.length) return false;
        for (const m of claimed) {
          position.set(m.id, m.to);
          writes++;
          if (m.from !== null) claims.delete(key(scope, m.from));
        }
        pending = pending.filter((m) => !claimed.includes(m));
      }
      return true;
    },
    withLease: (_scope, work) => work(),
    async positionOf(id) {
      return position.get(id) ?? null;
    },
  };
  return { store, position, sorted, writes: () => writes };
}

describe('Issue positions (RelativePositioning)', () => {
  it('When issues are created, then each goes IDEAL_DISTANCE after the last, the first at START_POSITION', async () => {
    const { store } = memoryStore();
    const positions = createIssuePositions(store);
    expect(await positions.claimAtEnd('g1', 1)).toBe(START_POSITION);
    expect(await positions.claimAtEnd('g1', 2)).toBe(START_POSITION + IDEAL_DISTANCE);
    expect(await positions.claimAtEnd('g2', 3)).toBe(START_POSITION);
  });

  it('When 10,000 moves land in the same gap, then the order stays strict and exact, at a few item moves each', async () => {
    const memory = memoryStore();
    const positions = createIssuePositions(memory.store);
    const order: number[] = [];
    for (let id = 1; id <= 3; id++) {
      memory.position.set(id, await positions.claimAtEnd('g', id));
      order.push(id);
    }
    // Each new issue goes right after issue 1, before the one placed there last: always the same gap.
    for (let id = 4; id < 10_004; id++) {
      memory.position.set(id, null);
      expect(await positions.moveBetween('g', id, 1, order[1]!)).toBe(true);
      order.splice(1, 0, id);
    }
    const laid = memory.sorted();
    expect(laid.map(([id]) => id)).toEqual(order);
    expect(new Set(laid.map(([, p]) => p)).size).toBe(laid.length);
    // Measured: about 14 position writes per move on average (the move itself and the spreads).
    expect(memory.writes() / 10_000).toBeLessThan(25);
  });

  it('When issues are moved at random, then the order is the intended one and positions stay distinct', async () => {
    const memory = memoryStore();
    const positions = createIssuePositions(memory.store);
    const order: number[] = [];
    for (let id = 1; id <= 200; id++) {
      memory.position.set(id, await positions.claimAtEnd('g', id));
      order.push(id);
    }
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 3_000; step++) {
      const id = order.splice(random(order.length), 1)[0]!;
      const at = random(order.length + 1);
      const afterId = at > 0 ? order[at - 1]! : null;
      const beforeId = at < order.length ? order[at]! : null;
      expect(await positions.moveBetween('g', id, afterId, beforeId)).toBe(true);
      order.splice(at, 0, id);
    }
    expect(memory.sorted().map(([id]) => id)).toEqual(order);
  });

  it('When the two neighbours are given in reverse order, then GitLab sorts them by position first', async () => {
    const memory = memoryStore();
    const positions = createIssuePositions(memory.store);
    for (let id = 1; id <= 3; id++) memory.position.set(id, await positions.claimAtEnd('g', id));
    expect(await positions.moveBetween('g', 3, 2, 1)).toBe(true);
    expect(memory.sorted().map(([id]) => id)).toEqual([1, 3, 2]);
  });
});
