import type { Model } from 'mongoose';
import type { RouteDoc } from './identity.models';
import { insertUnique } from '@gl/service-kit';

export type RouteSource = Pick<RouteDoc, 'sourceType' | 'sourceId'>;

/**
 * Path ownership: one document per lower-cased full path, unique by `_id`, so a group, a user namespace
 * and a project can never share one, even when two requests race: the insert decides.
 */
export function createRoutesStore(routes: Model<RouteDoc>) {
  const key = (fullPath: string): string => fullPath.toLowerCase();

  /** False when someone already holds the path. */
  async function claim(fullPath: string, source: RouteSource): Promise<boolean> {
    return insertUnique(routes, { _id: key(fullPath), ...source });
  }

  async function taken(fullPath: string): Promise<boolean> {
    return (await routes.exists({ _id: key(fullPath) })) !== null;
  }

  /** Only the owner's own route: a stale release must not free a path someone else has claimed since. */
  async function release(fullPath: string, source: RouteSource): Promise<void> {
    await routes.deleteOne({ _id: key(fullPath), ...source });
  }

  /** Claims the path whether or not a leftover route holds it (a moved subtree's new prefix was free). */
  async function takeOver(fullPath: string, source: RouteSource): Promise<void> {
    await routes.updateOne({ _id: key(fullPath) }, { $set: source }, { upsert: true });
  }

  return { claim, taken, release, takeOver };
}
export type RoutesStore = ReturnType<typeof createRoutesStore>;
