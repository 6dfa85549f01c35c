import { ConfigError, loadConfig } from '@gl/service-kit';
import { gatewayConfigSchema } from '../config';
import { DEFAULT_EXPIRED_MEMBERS_SWEEP_MS } from './expired-members';

describe('EXPIRED_MEMBERS_SWEEP_INTERVAL_MS', () => {
  const schema = gatewayConfigSchema.pick({ EXPIRED_MEMBERS_SWEEP_INTERVAL_MS: true });

  it('When it is unset, then the sweep runs hourly', () => {
    expect(loadConfig('gateway', schema, {}).EXPIRED_MEMBERS_SWEEP_INTERVAL_MS).toBe(3_600_000);
    expect(DEFAULT_EXPIRED_MEMBERS_SWEEP_MS).toBe(3_600_000);
  });

  it('When it is a whole number of milliseconds, then it is used (GitLab: daily)', () => {
    const config = loadConfig('gateway', schema, { EXPIRED_MEMBERS_SWEEP_INTERVAL_MS: '86400000' });
    expect(config.EXPIRED_MEMBERS_SWEEP_INTERVAL_MS).toBe(86_400_000);
  });

  it.each(['hourly', '0', '-5', '999', '1.5', '2147483648'])(
    'When it is %s, then the gateway refuses to start with a config error naming it',
    (value) => {
      expect(() => loadConfig('gateway', schema, { EXPIRED_MEMBERS_SWEEP_INTERVAL_MS: value })).toThrow(
        ConfigError,
      );
      try {
        loadConfig('gateway', schema, { EXPIRED_MEMBERS_SWEEP_INTERVAL_MS: value });
      } catch (err) {
        expect((err as ConfigError).problems.join('\n')).toContain(
          `EXPIRED_MEMBERS_SWEEP_INTERVAL_MS="${value}"`,
        );
      }
    },
  );
});
