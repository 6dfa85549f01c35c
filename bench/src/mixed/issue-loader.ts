import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { BatchWriter, claimIds, withoutOutbox, withProgress, type Doc } from './clone';

/**
 * Issues and their comments, copied in the discussions database from template issues made through the API
 * (each with its notes), as the columns scenario copies its issues: the copies get their own ids and iids
 * (claimed from the service's sequences, so issues the mix creates later follow them), their project, and
 * their template's label entries (`noteable_words`, which the service writes beside an issue's labels).
 * Issue i goes to project i mod the number of projects and copies template i mod the number of templates.
 */
export interface LoadedIssues {
  /** Per project: the iids the copies took (first and count), for reads of one issue. */
  iids: Map<number, { first: number; count: number }>;
  notes: number;
}

async function templates(connection: mongoose.Connection, ids: number[]) {
  return Promise.all(
    ids.map(async (id) => ({
      issue: (await connection.collection('noteables').findOne({ _id: id as never })) as Doc,
      words: await connection.collection('noteable_words').find({ noteableId: id }).toArray(),
      notes: await connection
        .collection('notes')
        .find({ noteableId: id, system: false })
        .sort({ _id: 1 })
        .toArray(),
    })),
  );
}

export async function loadIssues(options: {
  mongoUrl: string;
  databasePrefix: string;
  /** Database ids of the template issues. */
  templateIds: number[];
  projects: number[];
  issues: number;
  log: (line: string) => void;
}): Promise<LoadedIssues> {
  const { projects, issues, log } = options;
  const connection = await mongoose
    .createConnection(options.mongoUrl, { dbName: `${options.databasePrefix}discussions` })
    .asPromise();
  try {
    const shapes = await templates(connection, options.templateIds);
    const perProject = projects.map(
      (_, p) => Math.floor(issues / projects.length) + (p < issues % projects.length ? 1 : 0),
    );
    let notes = 0;
    let words = 0;
    for (let i = 0; i < issues; i++) {
      notes += shapes[i % shapes.length]!.notes.length;
      words += shapes[i % shapes.length]!.words.length;
    }
    const firstId = await claimIds(connection, 'noteable', issues);
    const firstNote = await claimIds(connection, 'note', Math.max(1, notes));
    const iids = new Map<number, { first: number; count: number }>();
    for (const [p, projectId] of projects.entries()) {
      iids.set(projectId, {
        first: await claimIds(connection, `issues:${projectId}`, perProject[p]!),
        count: perProject[p]!,
      });
    }
    const writer = new BatchWriter(connection);
    const taken = new Map<number, number>();
    let noteId = firstNote;
    const now = Date.now();
    await withProgress(
      log,
      'issues with comments (documents)',
      () => writer.written,
      issues + notes + words,
      async () => {
        for (let i = 0; i < issues; i++) {
          const projectId = projects[i % projects.length]!;
          const nth = taken.get(projectId) ?? 0;
          taken.set(projectId, nth + 1);
          const iid = iids.get(projectId)!.first + nth;
          const shape = shapes[i % shapes.length]!;
          const id = firstId + i;
          const createdAt = new Date(now - (issues - i) * 10_000);
          await writer.add('noteables', {
            ...withoutOutbox(shape.issue),
            _id: id,
            iid,
            projectId,
            title: `Mixed issue ${i}`,
            relativePosition: -1_000_000_000 + i * 513,
            createdAt,
            updatedAt: createdAt,
          });
          for (const word of shape.words) {
            await writer.add('noteable_words', {
              ...word,
              _id: `${String(word.word)}:${id}`,
              noteableId: id,
            });
          }
          // A note that starts a thread has its own discussion id; replies share it (keyed by the template's).
          const threads = new Map<unknown, string>();
          for (const note of shape.notes) {
            if (!threads.has(note.discussionId))
              threads.set(note.discussionId, randomBytes(20).toString('hex'));
            await writer.add('notes', {
              ...withoutOutbox(note),
              _id: noteId++,
              projectId,
              noteableId: id,
              noteableIid: iid,
              discussionId: threads.get(note.discussionId),
              createdAt,
              updatedAt: createdAt,
            });
          }
        }
        await writer.flush();
      },
    );
    return { iids, notes };
  } finally {
    await connection.close();
  }
}
