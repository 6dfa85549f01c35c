import { connectMongo, listDeadLetters, requeueDeadLetters } from '@gl/service-kit';

/**
 * Lists and republishes the events a service's outbox relay set aside (outbox_dead_letters):
 *
 *   node dist/tools/outbox-dead-letters.js list --service discussions
 *   node dist/tools/outbox-dead-letters.js republish --service discussions --id <event id> [--id …]
 *   node dist/tools/outbox-dead-letters.js republish --service discussions --all
 *
 * Republishing puts the events back into the service's outbox queue; its running relay publishes them
 * (de-duplicated by event id) or, if the broker still refuses them, sets them aside again.
 */
const SERVICES = ['gateway', 'boards', 'discussions', 'alerts', 'notifications', 'events', 'registry'];
const USAGE = [
  'usage: outbox-dead-letters list --service <name>',
  '       outbox-dead-letters republish --service <name> (--all | --id <event id> [--id <event id> …])',
  `services: ${SERVICES.join(', ')}   env: MONGO_URL, MONGO_DB (default gl_<service>)`,
].join('\n');

type Command = { action: 'list' } | { action: 'republish'; ids: string[] | undefined };

function parse(args: string[]): { command: Command; service: string } | null {
  const [action, ...rest] = args;
  let service: string | undefined;
  let all = false;
  const ids: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    const value = rest[i + 1];
    if (flag === '--service' && value) service = rest[++i];
    else if (flag === '--id' && value) ids.push(rest[++i]!);
    else if (flag === '--all') all = true;
    else return null;
  }
  if (!service || !SERVICES.includes(service)) return null;
  if (action === 'list' && !all && ids.length === 0) return { command: { action }, service };
  // Exactly one of --all and --id: republishing everything is never what a mistyped id meant.
  if (action === 'republish' && all !== ids.length > 0) {
    return { command: { action, ids: all ? undefined : ids }, service };
  }
  return null;
}

async function main(): Promise<number> {
  const parsed = parse(process.argv.slice(2));
  const mongoUrl = process.env.MONGO_URL;
  if (!parsed || !mongoUrl) {
    process.stderr.write(`${USAGE}\n${mongoUrl ? '' : 'MONGO_URL is not set\n'}`);
    return 64; // EX_USAGE
  }
  const connection = await connectMongo(mongoUrl, process.env.MONGO_DB || `gl_${parsed.service}`);
  try {
    if (parsed.command.action === 'list') {
      for (const entry of await listDeadLetters(connection))
        process.stdout.write(`${JSON.stringify(entry)}\n`);
      return 0;
    }
    const result = await requeueDeadLetters(connection, parsed.command.ids);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.missing.length > 0 ? 1 : 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
