/**
 * Three layers, one jest run (`npm test`), each a jest project that can also run alone
 * (`npx jest --selectProjects unit`):
 * - unit: `*.spec.ts` in apps, libs and tools: pure code, starts nothing;
 * - component: `*.component.spec.ts`: one app or library in-process on a real MongoDB-compatible server and
 *   NATS, which the project's global setup starts once;
 * - e2e: `e2e/*.e2e.spec.ts`: the whole stack through the gateway, started once by the project's global setup.
 * A project's global setup runs only when at least one of its tests is selected.
 */
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const shared = {
  testEnvironment: 'node',
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@gl/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    '^@gl/service-kit$': '<rootDir>/libs/service-kit/src/index.ts',
    '^@gl/testing$': '<rootDir>/libs/testing/src/index.ts',
    '^@gl/infra$': '<rootDir>/tools/infra/src/index.ts',
    '^@gl/launcher$': '<rootDir>/tools/launcher/src/stack.ts',
  },
};
const sources = ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'];
const teardown = '<rootDir>/libs/testing/src/jest/global-teardown.ts';

module.exports = {
  testTimeout: 30_000,
  maxWorkers: process.env.CI ? 2 : '50%',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: sources,
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.component\\.spec\\.ts$'],
    },
    {
      ...shared,
      displayName: 'component',
      roots: sources,
      testMatch: ['**/*.component.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/setup-component.ts',
      globalTeardown: teardown,
    },
    {
      ...shared,
      displayName: 'e2e',
      roots: ['<rootDir>/e2e'],
      testMatch: ['**/*.e2e.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/setup-e2e.ts',
      globalTeardown: teardown,
    },
  ],
};
