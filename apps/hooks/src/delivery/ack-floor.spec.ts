import { cachedAckFloor } from './ack-floor';
import { mapBounded } from './bounded';

/** A JetStream stand-in: answers `floor`, counts the reads, fails while `failing`. */
function source() {
  const state = { floor: 0, reads: 0, failing: false };
  const read = async () => {
    state.reads += 1;
    if (state.failing) throw new Error('JetStream unavailable');
    return state.floor;
  };
  return { state, read };
}

describe('the delivery consumer’s ack floor, cached', () => {
  it('When it is read again within its time, then JetStream is asked once', async () => {
    const { state, read } = source();
    let now = 1_000;
    const floor = cachedAckFloor(read, 20, undefined, () => now);
    state.floor = 7;
    expect(await floor.read()).toBe(7);
    state.floor = 9;
    now += 10;
    expect(await floor.read()).toBe(7);
    expect(state.reads).toBe(1);
    now += 10;
    expect(await floor.read()).toBe(9);
    expect(state.reads).toBe(2);
  });

  it('When deliveries were queued (invalidate), then the next read asks JetStream again', async () => {
    const { state, read } = source();
    const floor = cachedAckFloor(read, 60_000, undefined, () => 1_000);
    state.floor = 3;
    expect(await floor.read()).toBe(3);
    state.floor = 5;
    floor.invalidate();
    expect(await floor.read()).toBe(5);
  });

  it('When reads overlap, then they share one request', async () => {
    const { state, read } = source();
    const floor = cachedAckFloor(read, 20);
    state.floor = 4;
    expect(await Promise.all([floor.read(), floor.read(), floor.read()])).toEqual([4, 4, 4]);
    expect(state.reads).toBe(1);
  });

  it('When JetStream does not answer, then the last floor read stands (it holds back more, never less)', async () => {
    const { state, read } = source();
    const errors: unknown[] = [];
    let now = 1_000;
    const floor = cachedAckFloor(
      read,
      20,
      (err) => errors.push(err),
      () => now,
    );
    state.floor = 12;
    expect(await floor.read()).toBe(12);
    state.failing = true;
    now += 100;
    expect(await floor.read()).toBe(12);
    expect(errors).toHaveLength(1);
  });
});

describe('mapBounded', () => {
  it('When items are mapped, then results keep their order and at most `limit` calls run at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapBounded([5, 1, 4, 2, 3], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n));
      running -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });
});
