import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startInfra, type InfraHandle } from '@gl/infra';
import { startStack, type RunningStack } from '@gl/launcher';

const rootDir = resolve(__dirname, '..');

export interface OwnStack {
  infra: InfraHandle;
  stack: RunningStack;
}

type StackChoices = Omit<
  Parameters<typeof startStack>[0],
  'rootDir' | 'dataDir' | 'mongoUrl' | 'natsUrl' | 'gatewayPort' | 'rootToken' | 'databasePrefix'
> & {
  /** nats-servers of the infrastructure: 3 or 5 run a JetStream cluster (StartInfraOptions.natsNodes). */
  natsNodes?: number;
};

/**
 * A stack of a suite's own, beside the one global setup starts (fault tests kill its processes, the free
 * tier and replica suites configure it differently): fresh infrastructure and data under
 * `.data/<name>-<pid>` (marked with its owner, so a later run's clean-up leaves it while this one lives),
 * databases prefixed `<name>_`, quiet logs.
 */
export async function startOwnStack(
  name: string,
  rootToken: string,
  { natsNodes, ...choices }: StackChoices = {},
  check?: (infra: InfraHandle) => void,
): Promise<OwnStack> {
  const dataDir = join(rootDir, '.data', `${name}-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'owner.pid'), `${process.pid}\n`);
  const infra = await startInfra({ rootDir, dataDir, fresh: true, natsNodes });
  try {
    check?.(infra);
    const stack = await startStack({
      rootDir,
      dataDir,
      mongoUrl: infra.mongoUrl,
      natsUrl: infra.natsUrl,
      gatewayPort: 0,
      rootToken,
      databasePrefix: `${name}_`,
      ...choices,
      extraEnv: { LOG_LEVEL: 'warn', ...choices.extraEnv },
    });
    return { infra, stack };
  } catch (err) {
    await infra.stop();
    throw err;
  }
}
