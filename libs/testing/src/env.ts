/** Environment variables global setup hands to test workers. */
export const TEST_ENV = {
  mongoUrl: 'GL_TEST_MONGO_URL',
  natsUrl: 'GL_TEST_NATS_URL',
  /** The end-to-end stack's own database server and broker (apart from the component tests'). */
  stackMongoUrl: 'GL_TEST_STACK_MONGO_URL',
  stackNatsUrl: 'GL_TEST_STACK_NATS_URL',
  gatewayUrl: 'GL_TEST_GATEWAY_URL',
  rootToken: 'GL_TEST_ROOT_TOKEN',
  stackInfo: 'GL_TEST_STACK_INFO',
} as const;

export function testEnv(key: keyof typeof TEST_ENV): string {
  const value = process.env[TEST_ENV[key]];
  if (!value)
    throw new Error(`${TEST_ENV[key]} is not set: run the tests through jest's global setup (npm test)`);
  return value;
}
