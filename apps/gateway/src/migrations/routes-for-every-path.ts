import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { UPDATES_PER_COMMAND, type Migration } from '@gl/service-kit';

interface Routable {
  _id: number;
  fullPathLower?: string;
}
interface RouteRow {
  _id: string;
  sourceType: 'namespace' | 'project';
  sourceId: number;
}

/**
 * Every group, user namespace and project holds its full path in `routes` (the unique claim that keeps a
 * group from taking a project's path and the other way round, routes.store.ts). Data written before its
 * route (fixtures, imports, databases from before the claims) owned its path only within its own
 * collection: `paths.ts` had to treat such documents as taken. This step writes the missing claims; a
 * path already claimed by someone else is left to its holder and logged, never overwritten.
 */
export const routesForEveryPath: Migration = {
  version: 2,
  name: 'claim a route for every namespace and project without one',
  async up(connection: Connection, logger: Logger) {
    const routes = connection.collection<RouteRow>('routes');
    let claimed = 0;
    let conflicts = 0;
    for (const [collection, sourceType] of [
      ['namespaces', 'namespace'],
      ['projects', 'project'],
    ] as const) {
      const source = connection.collection<Routable>(collection);
      // Pages along the _id index (no query here reads a whole table at once).
      for (let after = Number.MIN_SAFE_INTEGER; ;) {
        const page = await source
          .find({ _id: { $gt: after } }, { projection: { fullPathLower: 1 } })
          .sort({ _id: 1 })
          .limit(UPDATES_PER_COMMAND)
          .toArray();
        if (page.length === 0) break;
        after = page[page.length - 1]!._id;
        const rows = page.filter((doc): doc is Required<Routable> => typeof doc.fullPathLower === 'string');
        if (rows.length === 0) continue;
        const result = await routes.bulkWrite(
          rows.map((doc) => ({
            updateOne: {
              filter: { _id: doc.fullPathLower },
              update: { $setOnInsert: { sourceType, sourceId: doc._id } },
              upsert: true,
            },
          })),
          { ordered: false },
        );
        claimed += result.upsertedCount;
        const held = await routes.find({ _id: { $in: rows.map((doc) => doc.fullPathLower) } }).toArray();
        const holder = new Map(held.map((route) => [route._id, route]));
        for (const doc of rows) {
          const route = holder.get(doc.fullPathLower);
          if (route && (route.sourceType !== sourceType || route.sourceId !== doc._id)) {
            conflicts++;
            logger.warn(
              { path: doc.fullPathLower, sourceType, sourceId: doc._id, holder: route },
              'migration: path already claimed by another owner; left to it',
            );
          }
        }
      }
    }
    logger.info({ claimed, conflicts }, 'migration: routes claimed');
  },
};
