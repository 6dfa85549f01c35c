import type { EventEnvelope } from '@gl/contracts';
import { UNCHANGED, type Subscription } from './consumer';
import { bumpingAfterWrites } from './version-bumping';

const event = { id: 'e1', type: 'gl.alerts.alert.created' } as EventEnvelope;

describe('resource versions bumped after a consumer wrote', () => {
  function wrapped(handle: Subscription['handle']) {
    const bump = jest.fn(async () => undefined);
    const subscription = bumpingAfterWrites({ durable: 'd', filterSubjects: ['gl.>'], handle }, bump);
    return { subscription, bump };
  }

  it('When the handler applied an event, then the service key is bumped before it is acknowledged', async () => {
    const order: string[] = [];
    const { subscription, bump } = wrapped(async () => {
      order.push('handled');
    });
    bump.mockImplementation(async () => {
      order.push('bumped');
    });
    await subscription.handle(event);
    expect(order).toEqual(['handled', 'bumped']);
  });

  it('When the handler says the event changed nothing, then nothing is bumped', async () => {
    const { subscription, bump } = wrapped(async () => UNCHANGED);
    expect(await subscription.handle(event)).toBe(UNCHANGED);
    expect(bump).not.toHaveBeenCalled();
  });

  it('When the handler fails, then nothing is bumped and the delivery fails', async () => {
    const { subscription, bump } = wrapped(async () => {
      throw new Error('database away');
    });
    await expect(subscription.handle(event)).rejects.toThrow('database away');
    expect(bump).not.toHaveBeenCalled();
  });
});

describe('resource versions bumped after a batch consumer wrote', () => {
  it('When a batch says it changed nothing, then nothing is bumped; otherwise the key is bumped once', async () => {
    const bump = jest.fn(async () => undefined);
    const outcomes = [{ unchanged: true }, { unchanged: false }, undefined];
    const subscription = bumpingAfterWrites(
      {
        durable: 'd',
        filterSubjects: ['gl.>'],
        handle: async () => undefined,
        handleBatch: async () => outcomes.shift(),
      },
      bump,
    );
    await subscription.handleBatch!([event], []);
    expect(bump).not.toHaveBeenCalled();
    await subscription.handleBatch!([event], []);
    await subscription.handleBatch!([event], []);
    expect(bump).toHaveBeenCalledTimes(2);
  });
});
