import { z } from 'zod';
import { natsServers } from './bus/bus';
import { ConfigError, baseServiceConfig, loadConfig } from './config';

describe('config', () => {
  const schema = z.object({
    PORT: z.coerce.number().int(),
    MONGO_URL: z.string().url(),
    TIER: z.enum(['free', 'ultimate']),
  });

  it('When every key is valid, then a frozen typed object comes back', () => {
    const config = loadConfig('svc', schema, { PORT: '8080', MONGO_URL: 'mongodb://x', TIER: 'free' });
    expect(config).toEqual({ PORT: 8080, MONGO_URL: 'mongodb://x', TIER: 'free' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('When several keys are bad, then the error lists every one of them', () => {
    let error: unknown;
    try {
      loadConfig('svc', schema, { PORT: 'eighty', TIER: 'gold' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT="eighty"/);
    expect(problems).toMatch(/MONGO_URL is missing/);
    expect(problems).toMatch(/TIER="gold"/);
  });

  it('When NATS_URL names a cluster, then every server is kept; anything but nats:// URLs is refused', () => {
    const env = {
      PORT: '1',
      MONGO_URL: 'mongodb://m',
      INTERNAL_CONTEXT_SECRET: 's'.repeat(32),
    };
    const cluster = 'nats://n1:4222,nats://n2:4222, nats://n3:4222';
    const config = loadConfig('svc', baseServiceConfig, {
      ...env,
      NATS_URL: cluster,
      NATS_STREAM_REPLICAS: '3',
    });
    expect(natsServers(config.NATS_URL)).toEqual(['nats://n1:4222', 'nats://n2:4222', 'nats://n3:4222']);
    expect(config.NATS_STREAM_REPLICAS).toBe(3);
    expect(
      loadConfig('svc', baseServiceConfig, { ...env, NATS_URL: 'nats://n1:4222' }).NATS_STREAM_REPLICAS,
    ).toBe(1);
    for (const NATS_URL of ['nats://n1:4222,http://n2', 'nats://n1:4222,', 'n1:4222'])
      expect(() => loadConfig('svc', baseServiceConfig, { ...env, NATS_URL })).toThrow(ConfigError);
  });
});
