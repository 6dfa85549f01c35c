/**
 * One jest run for every layer: unit, component (in-process apps on a real MongoDB-compatible server and
 * NATS) and end-to-end (the whole stack through the gateway). Global setup brings the infrastructure and
 * the stack up once and hands their addresses to the workers through the environment.
 */
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools', '<rootDir>/e2e'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@gl/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    '^@gl/service-kit$': '<rootDir>/libs/service-kit/src/index.ts',
    '^@gl/testing$': '<rootDir>/libs/testing/src/index.ts',
    '^@gl/infra$': '<rootDir>/tools/infra/src/index.ts',
  },
  globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
  testTimeout: 30_000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
