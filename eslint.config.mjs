// ESLint flat config: typescript-eslint with type information plus Nx module boundaries.
// `npx eslint .` works on its own (offline, no Nx daemon): the project graph the boundary rule needs is
// computed here in-process before the rules run, so there is no stale cache to depend on.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import nxPlugin from '@nx/eslint-plugin';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const root = dirname(fileURLToPath(import.meta.url));

process.env.NX_DAEMON ??= 'false';
process.env.NX_NO_CLOUD ??= 'true';
process.env.NX_WORKSPACE_ROOT_PATH ??= root;
{
  const { createProjectGraphAsync } = await import('@nx/devkit');
  // Writes .nx/workspace-data/project-graph.json, which @nx/enforce-module-boundaries reads. A broken
  // project.json fails the lint run here rather than silently skipping the boundary rule.
  await createProjectGraphAsync({ exitOnError: false });
}

const NODE_GLOBALS = {
  require: 'readonly',
  module: 'writable',
  exports: 'writable',
  __dirname: 'readonly',
  __filename: 'readonly',
  process: 'readonly',
  console: 'readonly',
  Buffer: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
  URL: 'readonly',
  fetch: 'readonly',
};

/** Who may import whom; apps never import apps because type:app is in no list. */
const DEP_CONSTRAINTS = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  {
    sourceTag: 'type:testing',
    onlyDependOnLibsWithTags: ['type:lib', 'type:contracts', 'type:tool', 'type:testing'],
  },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:tool', 'type:lib', 'type:contracts'] },
];

/** Test files, and the helpers only they use (an app's src/testing/, *.test-helpers.ts), may also use the test kit. */
const TEST_FILES = ['**/*.spec.ts', '**/*.test-helpers.ts', 'apps/*/src/testing/**/*.ts', 'e2e/**/*.ts'];

const SPEC_DEP_CONSTRAINTS = DEP_CONSTRAINTS.map((c) => ({
  ...c,
  onlyDependOnLibsWithTags: [...new Set([...c.onlyDependOnLibsWithTags, 'type:testing'])],
}));

const boundaries = (depConstraints) => [
  'error',
  { enforceBuildableLibDependency: false, allow: [], depConstraints },
];

const NO_DEEP_IMPORTS = {
  group: ['@gl/*/*'],
  message: 'Import a library through its public entry point (@gl/<name>), not its internals.',
};

/**
 * An app's layers, by file name: routers (`*.router.ts`) speak HTTP and call services; services
 * (`*.service.ts`) hold the rules and call stores; only stores (`*.store.ts`) touch models (`*.models.ts`,
 * `*.model.ts`, `models.ts`). Services may name a model's document type, which is what stores return.
 */
const MODELS = '(^|/)([^/]*\\.models?|models)$';
const STORES = '(^|/)[^/]*\\.stores?$';
const ROUTERS = '(^|/)[^/]*\\.routers?$';
const TEST_HELPERS = {
  group: ['**/testing/**', '**/*.test-helpers'],
  message: 'Test helpers are for *.spec.ts files only.',
};
const layer = (...patterns) => ['error', { patterns: [NO_DEEP_IMPORTS, TEST_HELPERS, ...patterns] }];
const ROUTER_LAYER = layer(
  { regex: MODELS, message: 'A router calls services; models belong to stores.' },
  { regex: STORES, message: 'A router calls services, not stores.' },
  { regex: ROUTERS, message: 'A router does not import another router; move what they share out.' },
);
const SERVICE_LAYER = layer(
  { regex: MODELS, allowTypeImports: true, message: 'A service reads and writes through stores.' },
  { regex: ROUTERS, message: 'A service does not depend on HTTP routing.' },
);

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.cache/**',
      '.data/**',
      '.nx/**',
      '**/coverage/**',
      'tools/build/*.js',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  // TypeScript: recommended rules with type information.
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    plugins: { '@nx': nxPlugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Express 5 awaits async handlers, so passing one where a void callback is expected is fine.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@nx/enforce-module-boundaries': boundaries(DEP_CONSTRAINTS),
      'no-restricted-imports': ['error', { patterns: [NO_DEEP_IMPORTS] }],
    },
  },
  // Production code of an app must not reach its test helpers (which may use the test kit), keeps its
  // layers, stays readable in one sitting (400 lines) and has no import cycles.
  {
    files: ['apps/**/*.ts'],
    ignores: TEST_FILES,
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.js'] } } },
    rules: {
      'no-restricted-imports': layer(),
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Presenters run once per item of a page: on our Node (V8 11.3) each property added after a leading
  // object spread (`{ ...base, more }`) builds a new hidden class, about 1 µs each — 30 µs for an issue.
  // Extend the fresh base instead: `Object.assign(base(doc), { more })`.
  {
    files: ['apps/**/*presenter*.ts', 'apps/**/*.entities.ts', 'libs/service-kit/src/entities/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > SpreadElement:first-child:not(:last-child)',
          message:
            'A leading spread followed by fields costs a hidden class per field: Object.assign(base, {...}).',
        },
      ],
    },
  },
  { files: ['apps/**/*.router.ts'], ignores: TEST_FILES, rules: { 'no-restricted-imports': ROUTER_LAYER } },
  { files: ['apps/**/*.service.ts'], ignores: TEST_FILES, rules: { 'no-restricted-imports': SERVICE_LAYER } },
  {
    files: ['libs/**/*.ts', 'tools/**/*.ts', 'bench/**/*.ts'],
    ignores: TEST_FILES,
    rules: { 'max-lines': ['error', 400] },
  },
  // Tests and their helpers may also use the test kit.
  {
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': boundaries(SPEC_DEP_CONSTRAINTS),
      // jest's expect(mock.fn) and similar pass methods around on purpose.
      '@typescript-eslint/unbound-method': 'off',
      // Stubs of async interfaces are often `async () => value`.
      '@typescript-eslint/require-await': 'off',
    },
  },

  // Contracts are plain zod: no node built-ins, no npm packages, no other library.
  {
    files: ['libs/contracts/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|\\.{1,2}/|\\.{1,2}$)',
              message: 'libs/contracts may import only zod (and its own files).',
            },
          ],
        },
      ],
    },
  },

  // Plain JavaScript (jest config, scripts): no type information, CommonJS by default.
  {
    files: ['**/*.js', '**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'commonjs', ecmaVersion: 2022, globals: NODE_GLOBALS },
  },
  {
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', ecmaVersion: 2022, globals: NODE_GLOBALS },
  },
);
