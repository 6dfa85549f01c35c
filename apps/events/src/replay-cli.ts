import { z } from 'zod';
import { connectBus, connectMongo, createLogger } from '@gl/service-kit';
import { createActivitySequence } from './activity-sequence';
import { createActivityRecorder } from './activity.consumer';
import { createEventsModels } from './events.models';
import { replayStream, type ReplayFrom } from './replay';

const USAGE =
  'usage: replay --from-seq <n> | --from-time <ISO-8601>   (env: MONGO_URL, NATS_URL, MONGO_DB=gl_events)';

const env = z
  .object({
    MONGO_URL: z.string().min(1),
    NATS_URL: z.string().min(1),
    MONGO_DB: z.string().default('gl_events'),
    LOG_LEVEL: z.string().default('info'),
  })
  .safeParse(process.env);

function parseFrom(args: string[]): ReplayFrom | null {
  const [flag, value] = args;
  if (flag === '--from-seq' && value && /^\d+$/.test(value)) return { sequence: Number(value) };
  if (flag === '--from-time' && value && !Number.isNaN(Date.parse(value))) return { time: new Date(value) };
  return null;
}

/** Rebuilds the activity log from the event stream: `node dist/apps/events/replay.js --from-seq 1`. */
async function main(): Promise<number> {
  const from = parseFrom(process.argv.slice(2));
  if (!env.success || !from) {
    process.stderr.write(`${USAGE}\n${env.success ? '' : env.error.message}\n`);
    return 64; // EX_USAGE
  }
  const logger = createLogger('events-replay', env.data.LOG_LEVEL);
  const connection = await connectMongo(env.data.MONGO_URL, env.data.MONGO_DB);
  const bus = await connectBus(env.data.NATS_URL, 'events-replay', logger);
  try {
    const models = createEventsModels(connection);
    await models.activities.init();
    const result = await replayStream(
      bus,
      createActivityRecorder(models, createActivitySequence(connection)),
      from,
      logger,
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await bus.close();
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
