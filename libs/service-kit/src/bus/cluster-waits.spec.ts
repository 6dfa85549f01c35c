import { JetStreamApiError } from '@nats-io/jetstream';
import { TimeoutError } from '@nats-io/nats-core';
import { isJetStreamUnavailable, isLeaderless, whileUnavailable } from './cluster-waits';

const apiError = (code: number, err_code: number): JetStreamApiError =>
  new JetStreamApiError({ code, err_code, description: `error ${err_code}` });
const noResponders = (): Error => Object.assign(new Error('no responders'), { name: 'JetStreamNotEnabled' });

describe('JetStream unavailable or refusing', () => {
  it.each([
    ['no responders', true, true, noResponders()],
    ['a timeout', true, false, new TimeoutError()],
    ['503 temporarily unavailable', true, true, apiError(503, 10008)],
    ['no suitable peers', true, true, apiError(400, 10005)],
    ['insufficient resources', false, false, apiError(503, 10023)],
    ['a bad configuration', false, false, apiError(400, 10058)],
    ['anything else', false, false, new Error('boom')],
  ])('When the error is %s, then waiting is %s and a quick retry %s', (_, unavailable, leaderless, err) => {
    expect(isJetStreamUnavailable(err)).toBe(unavailable);
    expect(isLeaderless(err)).toBe(leaderless);
  });

  it('When JetStream answers after failing, then the call succeeds; a refusal is thrown at once', async () => {
    let calls = 0;
    const flaky = async (): Promise<string> => {
      if (++calls < 3) throw noResponders();
      return 'ok';
    };
    await expect(whileUnavailable(flaky, { waitMs: 5_000, what: 'test' })).resolves.toBe('ok');
    expect(calls).toBe(3);
    const refused = jest.fn(async () => {
      throw apiError(400, 10058);
    });
    await expect(whileUnavailable(refused, { waitMs: 5_000, what: 'test' })).rejects.toThrow('error 10058');
    expect(refused).toHaveBeenCalledTimes(1);
  });

  it('When JetStream stays unavailable past the wait, then the last error is thrown', async () => {
    const never = async (): Promise<never> => {
      throw noResponders();
    };
    await expect(whileUnavailable(never, { waitMs: 300, what: 'test' })).rejects.toThrow('no responders');
  });
});
