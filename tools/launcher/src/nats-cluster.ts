import { NATS_CLUSTER_SIZES } from '@gl/infra';

/** Copies of the event stream on a local cluster: one node may fail (R3); more copies cost every write. */
export const CLUSTER_STREAM_REPLICAS = 3;

function parseSize(value: string, source: string): number {
  const nodes = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!(NATS_CLUSTER_SIZES as readonly number[]).includes(nodes))
    throw new Error(`${source}: "${value}" is not a cluster size; use ${NATS_CLUSTER_SIZES.join(', ')}`);
  return nodes;
}

/**
 * `npm start -- --nats-cluster 3` (or `--nats-cluster=3`, or GL_NATS_CLUSTER=3; the flag wins): how many
 * nats-servers the local infrastructure runs, and the arguments left for the other options. A bad size is
 * refused before anything starts.
 */
export function natsClusterFromCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { nodes: number; rest: string[] } {
  let nodes = env.GL_NATS_CLUSTER ? parseSize(env.GL_NATS_CLUSTER, 'GL_NATS_CLUSTER') : 1;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--nats-cluster') {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--'))
        throw new Error('--nats-cluster needs a size, e.g. --nats-cluster 3');
      nodes = parseSize(value, '--nats-cluster');
    } else if (arg.startsWith('--nats-cluster=')) {
      nodes = parseSize(arg.slice('--nats-cluster='.length), '--nats-cluster');
    } else {
      rest.push(arg);
    }
  }
  return { nodes, rest };
}
