import type { Connection } from 'mongoose';
import { compiledModels } from '@gl/service-kit';
import { DISCUSSIONS_MODEL_NAMES, type DiscussionsModels } from '../discussions.models';

/**
 * The models a step works with, by their keys in DiscussionsModels: the app compiles them before the steps
 * run, under the names discussions.models.ts gives them.
 */
export function compiledDiscussionsModels<K extends keyof DiscussionsModels>(
  connection: Connection,
  ...keys: K[]
): Pick<DiscussionsModels, K> {
  const names = {} as Record<K, string>;
  for (const key of keys) names[key] = DISCUSSIONS_MODEL_NAMES[key];
  return compiledModels<Pick<DiscussionsModels, K>>(connection, names);
}
