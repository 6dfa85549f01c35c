import { throttleConfigSchema, throttleSettings } from './throttle.settings';

describe('throttle settings from the environment', () => {
  it('When nothing is set, then both limits are off, as on a self-managed GitLab', () => {
    expect(throttleSettings(throttleConfigSchema.parse({}))).toEqual({
      authenticated: null,
      unauthenticated: null,
    });
  });

  it("When a limit is enabled, then GitLab's default numbers apply unless given", () => {
    const settings = throttleSettings(
      throttleConfigSchema.parse({
        THROTTLE_AUTHENTICATED_API_ENABLED: 'true',
        THROTTLE_UNAUTHENTICATED_API_ENABLED: '1',
        THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD: '10',
        THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS: '60',
      }),
    );
    expect(settings).toEqual({
      authenticated: { name: 'throttle_authenticated_api', limit: 7200, periodSeconds: 3600 },
      unauthenticated: { name: 'throttle_unauthenticated_api', limit: 10, periodSeconds: 60 },
    });
  });

  it('When a value is not a flag or a positive count, then the configuration is refused', () => {
    expect(() => throttleConfigSchema.parse({ THROTTLE_AUTHENTICATED_API_ENABLED: 'yes' })).toThrow();
    expect(() => throttleConfigSchema.parse({ THROTTLE_AUTHENTICATED_API_PERIOD_IN_SECONDS: '0' })).toThrow();
  });
});
