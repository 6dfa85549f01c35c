import { dropIndexesIfPresent, reportingMigration, type Migration } from '@gl/service-kit';

/**
 * A step for indexes that replace older ones which are a prefix of them: mongoose builds the new ones when
 * the model compiles, while the old ones would only cost every write and could still be chosen for a
 * query that then reads or sorts more than it needs. Waits for `model`'s build, then drops the `replaced`
 * indexes of its `collection` (idempotent: it checks first).
 */
export function replacedIndexesMigration(
  version: number,
  step: { name: string; done: string; model: string; collection: string; replaced: string[] },
): Migration {
  return reportingMigration(version, step.name, step.done, async (connection) => {
    await connection.models[step.model]?.init();
    return { dropped: await dropIndexesIfPresent(connection.collection(step.collection), step.replaced) };
  });
}
