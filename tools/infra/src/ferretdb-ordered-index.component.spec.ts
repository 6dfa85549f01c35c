import * as path from 'node:path';
import mongoose from 'mongoose';
import { seededRandom } from '@gl/testing';
import { startServerPair, stopServerPair, type PairedServer } from './ferretdb-server-pair';

/**
 * FerretDB patch 0018: a sorted query whose filter seeks equally far into several indexes (an $in on their
 * shared leading keys, as a group's issue list has on `projectId`) names the index holding the order's keys
 * (INDEXED BY), where SQLite took the last one it costed and read the sort keys out of each row's JSON.
 * Only the plan may change: pages and their order are compared with a server without pushdown.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SEED = Number(process.env.DIFF_SEED ?? Date.now() % 2 ** 31);

const { BSON } = mongoose.mongo;
type Doc = Record<string, unknown>;

describe('FerretDB reads a sorted page along the index holding its order', () => {
  let withPushdown: PairedServer | undefined;
  let withoutPushdown: PairedServer | undefined;

  beforeAll(async () => {
    ({ withPushdown, withoutPushdown } = await startServerPair(ROOT, 'ferretdb-ordered-'));
  }, 600_000);

  afterAll(() => stopServerPair({ withPushdown, withoutPushdown }));

  /** Index keys as the list indexes have them: kind, project, the order's key, _id, the filter keys. */
  const orderKeys = ['created', 'updated', 'title', 'due'] as const;

  async function seeded(name: string): Promise<mongoose.mongo.Collection[]> {
    const random = seededRandom(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const documents = Array.from({ length: 500 }, (_, i) => {
      const doc: Doc = { _id: i + 1, kind: pick(['Issue', 'Issue', 'MR']), project: pick([1, 2, 3, 4]) };
      doc.created = new Date(1_700_000_000_000 + Math.floor(random() * 50) * 1000);
      doc.updated = pick([new Date(1_700_000_000_000 + i), null, 'x']);
      doc.title = pick(['a', 'b', 'c', 7]);
      if (random() < 0.8) doc.due = pick(['2026-01-01', '2026-02-01', null]);
      doc.state = pick(['opened', 'closed']);
      doc.words = pick([' la ', ' la lb ', ' lb ', ' ']);
      return doc;
    });
    const collections = [withPushdown, withoutPushdown].map((s) => s!.client.db('ordered').collection(name));
    for (const collection of collections) {
      await collection.insertMany(documents.map((d) => ({ ...d })));
      // The order's index first: SQLite, left alone, took the one created last among equals.
      for (const key of orderKeys) {
        await collection.createIndex({ kind: 1, project: 1, [key]: 1, _id: 1, state: 1, words: 1 });
      }
    }
    return collections;
  }

  it('When a sorted page filters an $in of projects, then answers and order match the server without pushdown', async () => {
    const servers = await seeded('pages');
    const random = seededRandom(SEED + 1);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const mismatches: string[] = [];
    for (let i = 0; i < 200 && mismatches.length < 3; i++) {
      const dir = (): 1 | -1 => (random() < 0.5 ? 1 : -1);
      const conditions: Doc[] = [{ kind: pick(['Issue', 'MR']) }, { project: { $in: [1, 3, pick([2, 4])] } }];
      if (random() < 0.6) conditions.push({ state: pick(['opened', 'closed']) });
      if (random() < 0.5) conditions.push({ words: { $regex: pick([' la ', ' lb ']) } });
      if (random() < 0.2) conditions.push({ due: { $gte: '2026-01-15' } });
      const key = pick(orderKeys);
      const sort = { [key]: dir(), _id: dir() };
      const limit = random() < 0.8 ? 1 + Math.floor(random() * 30) : 0;
      const skip = random() < 0.2 ? Math.floor(random() * 20) : 0;
      const [pushed, plain] = await Promise.all(
        servers.map(async (c) =>
          BSON.EJSON.stringify(await c.find({ $and: conditions }, { sort, skip, limit }).toArray(), {
            relaxed: false,
          }),
        ),
      );
      if (pushed !== plain)
        mismatches.push(
          `#${i} ${BSON.EJSON.stringify({ conditions, sort, skip, limit })}\n  ${pushed}\n  ${plain}`,
        );
    }
    expect({ seed: SEED, mismatches }).toEqual({ seed: SEED, mismatches: [] });
  });

  it('When a page of several projects is sorted by a key, then SQLite walks the index holding that key', async () => {
    const [pushed] = await seeded('plans');
    for (const key of orderKeys) {
      const explained = (await pushed!
        .find({ $and: [{ kind: 'Issue' }, { project: { $in: [1, 2, 3] } }, { state: 'opened' }] })
        .sort({ [key]: -1, _id: -1 })
        .limit(20)
        .explain()) as { queryPlanner?: { Plan?: string[] } };
      const plan = (explained.queryPlanner?.Plan ?? []).map((line) => line.replace(/^.*detail=/, ''));
      expect(plan[0]).toMatch(new RegExp(`^SEARCH \\S+ USING INDEX \\S+_kind_1_project_1_${key}_1__id_1_`));
    }
  });
});
