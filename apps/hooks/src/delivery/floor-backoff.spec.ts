import { createFloorBackoff } from './floor-backoff';

describe('The sender’s back-off while the ack floor holds deliveries', () => {
  it('When the floor stays where it was, then each wait doubles up to the cap', () => {
    const backoff = createFloorBackoff(25, 1_000);
    expect(Array.from({ length: 8 }, () => backoff.held(7))).toEqual([
      25, 50, 100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('When the floor moves, or nothing waits any more, then the wait is back at the base', () => {
    const backoff = createFloorBackoff(25, 1_000);
    expect([backoff.held(7), backoff.held(7), backoff.held(7)]).toEqual([25, 50, 100]);
    expect([backoff.held(9), backoff.held(9)]).toEqual([25, 50]);
    backoff.reset();
    expect(backoff.held(9)).toBe(25);
  });

  it('When the cap is below the base, then the base is the wait', () => {
    const backoff = createFloorBackoff(25, 10);
    expect([backoff.held(1), backoff.held(1)]).toEqual([25, 25]);
  });
});
