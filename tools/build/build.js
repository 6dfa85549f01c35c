// Bundles every app and tool entry point with esbuild (type checking is `npm run typecheck`'s job).
// npm packages stay external: they are resolved from node_modules at run time, native re2 included.
const { build } = require('esbuild');
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');

function entryPoints() {
  const entries = {};
  for (const app of readdirSync(join(root, 'apps'))) {
    const main = join(root, 'apps', app, 'src', 'main.ts');
    if (existsSync(main)) entries[`apps/${app}/main`] = main;
    const worker = join(root, 'apps', app, 'src', 'worker.main.ts');
    if (existsSync(worker)) entries[`apps/${app}/worker`] = worker;
    const replay = join(root, 'apps', app, 'src', 'replay-cli.ts');
    if (existsSync(replay)) entries[`apps/${app}/replay`] = replay;
    const benchSeed = join(root, 'apps', app, 'src', 'bench-seed-cli.ts');
    if (existsSync(benchSeed)) entries[`apps/${app}/bench-seed`] = benchSeed;
  }
  const tools = {
    'tools/start': 'tools/launcher/src/start-cli.ts',
    'tools/harness': 'tools/launcher/src/harness.ts',
    'tools/infra-cli': 'tools/infra/src/infra-cli.ts',
    'tools/openapi': 'tools/openapi/src/openapi-cli.ts',
    'tools/bench': 'bench/src/bench-cli.ts',
    'tools/outbox-dead-letters': 'tools/outbox/src/outbox-dead-letters-cli.ts',
    'tools/backup': 'tools/backup/src/backup-cli.ts',
  };
  for (const [out, src] of Object.entries(tools)) {
    if (existsSync(join(root, src))) entries[out] = join(root, src);
  }
  return entries;
}

/** The entry points under one project's folder (`apps/boards`, `tools/launcher`, `bench`), or all of them. */
function entryPointsOf(projectRoot) {
  const all = entryPoints();
  if (!projectRoot) return all;
  const prefix = join(root, projectRoot) + '/';
  return Object.fromEntries(Object.entries(all).filter(([, src]) => src.startsWith(prefix)));
}

async function buildAll(projectRoot) {
  const started = Date.now();
  await build({
    absWorkingDir: root,
    entryPoints: entryPointsOf(projectRoot),
    outdir: join(root, 'dist'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    tsconfig: join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
  return Date.now() - started;
}

module.exports = { buildAll, entryPoints };

// `node tools/build/build.js [projectRoot]`: everything, or one project's entry points (its Nx `build`).
if (require.main === module) {
  const projectRoot = process.argv[2];
  buildAll(projectRoot).then(
    (ms) =>
      console.log(
        `built ${Object.keys(entryPointsOf(projectRoot)).length} entry points into dist/ in ${ms} ms`,
      ),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
