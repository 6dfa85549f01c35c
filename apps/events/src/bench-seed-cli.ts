import { z } from 'zod';
import { connectMongo } from '@gl/service-kit';
import { withReach } from './activity-log.store';
import { createActivitySequence } from './activity-sequence';
import { createEventsModels, type ActivityDoc } from './events.models';

/**
 * Seeds N synthetic activity events (the log, written as the consumer writes it) for
 * `npm run bench -- --scenario events`: event i belongs to `--real-project` when i % 10 == 0 (so a real
 * project has deep pages) and otherwise to one of `--projects - 1` synthetic ids from `--fake-project-base`.
 * The mixed scenario spreads them over real projects and authors instead: `--real-projects 5,6,7` and
 * `--authors 1,40,41` (round-robin over the projects, the author moving on after each round), so every
 * project and every one of those users has activity of its own.
 * Prints one JSON line of progress per chunk and a final summary.
 */
const USAGE =
  'usage: bench-seed --events N (--real-project ID --fake-project-base ID --projects N --author ID | --real-projects ID,ID… --authors ID,ID…) --id-base ID   (env: MONGO_URL, MONGO_DB)';

const env = z.object({ MONGO_URL: z.string().min(1), MONGO_DB: z.string().min(1) }).safeParse(process.env);
const CHUNK = 100_000;

const idList = z
  .string()
  .regex(/^\d+(,\d+)*$/)
  .transform((list) => list.split(',').map(Number));

const args = z
  .union([
    z.object({
      events: z.coerce.number().int().positive(),
      'real-project': z.coerce.number().int().positive(),
      'fake-project-base': z.coerce.number().int().positive(),
      projects: z.coerce.number().int().min(2),
      author: z.coerce.number().int().positive(),
      'id-base': z.coerce.number().int().positive(),
    }),
    z.object({
      events: z.coerce.number().int().positive(),
      'real-projects': idList,
      authors: idList,
      'id-base': z.coerce.number().int().positive(),
    }),
  ])
  .safeParse(
    Object.fromEntries(
      process.argv
        .slice(2)
        .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
    ),
  );

function synthetic(i: number, projectId: number, authorId: number, idBase: number, at: number): ActivityDoc {
  return {
    _id: idBase + i,
    sourceEventId: `bench-seed-${idBase + i}`,
    projectId,
    groupId: null,
    authorId,
    authorUsername: null,
    authorName: null,
    action: 'created',
    actionName: 'opened',
    targetId: i,
    targetIid: i,
    targetType: 'Issue',
    targetTitle: `Seeded ${i}`,
    note: null,
    pushData: null,
    createdAt: new Date(at),
  };
}

async function main(): Promise<number> {
  if (!env.success || !args.success) {
    process.stderr.write(`${USAGE}\n`);
    return 64; // EX_USAGE
  }
  const a = args.data;
  const connection = await connectMongo(env.data.MONGO_URL, env.data.MONGO_DB);
  try {
    const models = createEventsModels(connection);
    // Ids recorded from now on come after the seeded ones, as they would after real ones.
    await createActivitySequence(connection).ensureAtLeast(a['id-base'] + a.events);
    const started = Date.now();
    const now = Date.now();
    for (let from = 0; from < a.events; from += CHUNK) {
      const chunk: ActivityDoc[] = [];
      for (let i = from; i < Math.min(a.events, from + CHUNK); i++) {
        const at = now - (a.events - i) * 1_000;
        if ('authors' in a) {
          const projects = a['real-projects'];
          const author = a.authors[Math.floor(i / projects.length) % a.authors.length]!;
          chunk.push(synthetic(i, projects[i % projects.length]!, author, a['id-base'], at));
          continue;
        }
        const projectId = i % 10 === 0 ? a['real-project'] : a['fake-project-base'] + (i % (a.projects - 1));
        chunk.push(synthetic(i, projectId, a.author, a['id-base'], at));
      }
      for (let i = 0; i < chunk.length; i += 5_000) {
        const part = chunk.slice(i, i + 5_000).map(withReach);
        await models.activities.insertMany(part, { ordered: false, lean: true });
      }
      const seeded = from + chunk.length;
      process.stdout.write(
        `${JSON.stringify({ seeded, of: a.events, seconds: (Date.now() - started) / 1_000 })}\n`,
      );
    }
    return 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench-seed failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
