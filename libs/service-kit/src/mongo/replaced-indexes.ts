import type { mongo } from 'mongoose';
import { dropIndexesIfPresent } from './indexes';
import { reportingMigration, type Migration } from './migrations';

/** A step replacing indexes: what builds the new one, which old ones go. */
export interface ReplacedIndexesStep {
  name: string;
  /** The log line once done. */
  done: string;
  collection: string;
  /** The model whose compile builds the new index (its `init()` is awaited) … */
  model?: string;
  /** … or the new index itself, built here. */
  index?: mongo.IndexSpecification;
  /** Names of the indexes it replaces. */
  replaced: string[];
}

/**
 * A step for indexes that replace older ones (often a prefix of them): the new index is built first, then
 * the old ones are dropped, since they would only cost every write and could still be chosen for a query
 * that then reads or sorts more than it needs. Idempotent: both steps check first.
 */
export function replacedIndexesMigration(version: number, step: ReplacedIndexesStep): Migration {
  return reportingMigration(version, step.name, step.done, async (connection) => {
    const collection = connection.collection(step.collection);
    if (step.model) await connection.models[step.model]?.init();
    if (step.index) await collection.createIndex(step.index);
    return { dropped: await dropIndexesIfPresent(collection, step.replaced) };
  });
}
