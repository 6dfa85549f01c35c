/** Most processes of one kind the launcher starts: beyond this a typo (`events=20`) is more likely than intent. */
export const MAX_REPLICAS = 8;

/** How many processes of each kind to start; kinds left out run once. */
export type ReplicaCounts<Name extends string> = Partial<Record<Name, number>>;

/**
 * Reads `events=2,boards=2` (the `--replicas` flag or GL_REPLICAS) into counts per process kind. Every
 * mistake is refused with a message that names the entry and what is allowed, before anything starts.
 */
export function parseReplicas<Name extends string>(
  spec: string,
  names: readonly Name[],
  source = '--replicas',
): ReplicaCounts<Name> {
  const counts: ReplicaCounts<Name> = {};
  const usage = `expected name=count[,name=count…] with name one of ${names.join(', ')} and count 1..${MAX_REPLICAS}`;
  for (const entry of spec.split(',').map((part) => part.trim())) {
    if (entry === '') throw new Error(`${source}: empty entry in "${spec}"; ${usage}`);
    const match = /^([\w-]+)=(\d+)$/.exec(entry);
    if (!match) throw new Error(`${source}: "${entry}" is not name=count; ${usage}`);
    const [, name, count] = match as unknown as [string, string, string];
    if (!(names as readonly string[]).includes(name))
      throw new Error(`${source}: unknown process "${name}"; ${usage}`);
    const n = Number(count);
    if (n < 1 || n > MAX_REPLICAS) throw new Error(`${source}: ${name}=${count} is out of range; ${usage}`);
    if (name in counts) throw new Error(`${source}: ${name} is given twice`);
    counts[name as Name] = n;
  }
  return counts;
}

/**
 * The replica counts for `npm start`: GL_REPLICAS from the environment, then `--replicas x` or
 * `--replicas=x` on the command line, which wins for the kinds it names. Other arguments are refused.
 */
export function replicasFromCli<Name extends string>(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  names: readonly Name[],
): ReplicaCounts<Name> {
  let counts: ReplicaCounts<Name> = env.GL_REPLICAS
    ? parseReplicas(env.GL_REPLICAS, names, 'GL_REPLICAS')
    : {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let value: string | undefined;
    if (arg === '--replicas') {
      value = argv[++i];
      if (value === undefined || value.startsWith('--'))
        throw new Error('--replicas needs a value, e.g. --replicas events=2');
    } else if (arg.startsWith('--replicas=')) {
      value = arg.slice('--replicas='.length);
    } else {
      throw new Error(
        `unknown argument "${arg}"; the options are --replicas name=count[,name=count…] and --nats-cluster 3`,
      );
    }
    counts = { ...counts, ...parseReplicas(value, names) };
  }
  return counts;
}

/**
 * Process names of one kind: the first keeps the kind's name (logs, `kill('events')` as before), the
 * others are numbered from 2 (`events-2`).
 */
export function replicaNames(kind: string, count = 1): string[] {
  return Array.from({ length: count }, (_, i) => (i === 0 ? kind : `${kind}-${i + 1}`));
}
