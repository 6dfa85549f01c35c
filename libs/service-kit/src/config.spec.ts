import { z } from 'zod';
import { ConfigError, loadConfig } from './config';

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
});
