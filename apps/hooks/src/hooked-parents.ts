import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { ResourceVersions } from '@gl/service-kit';
import type { HookDoc } from './hooks.models';

/**
 * The resource-versions key (libs/service-kit/src/bus/resource-versions.ts) of "which projects and groups
 * have hooks". A hook's creation bumps it after the hook is stored and before the creation is answered.
 */
export const HOOKED_PARENTS_KEY = 'hooks.parents';

/**
 * However recent its version, a copy is read again after this long: a bump lost to a broker outage
 * cannot hide a new hook for longer.
 */
const MAX_AGE_MS = 10_000;

export interface HookedParentSets {
  projects: ReadonlySet<number>;
  groups: ReadonlySet<number>;
}

export interface HookedParents {
  /**
   * The parents that have hooks now, from this process's copy while the key's version is unchanged; null
   * when the version could not be read (the caller then reads the hooks themselves).
   */
  current(): Promise<HookedParentSets | null>;
  /** Tells every process a hook was stored: their next `current` reads the parents again. */
  added(): Promise<void>;
}

/**
 * Most events come from projects no hook reaches; the delivery consumer used to learn that with three
 * reads per event (the project's copy, its hooks, its groups' hooks). This copy turns that into one read
 * of the version (a key-value get) for a project without hooks under groups without hooks.
 *
 * Why a hook created while an event is being handled may miss it: the event is then concurrent with a
 * creation not yet answered, and a hook takes the events that happen after its creation was answered.
 * Every event after that reads the bumped version, so the copy is read again first.
 */
export function createHookedParents(
  hooks: Model<HookDoc>,
  versions: Pick<ResourceVersions, 'bump' | 'current'>,
  logger: Pick<Logger, 'warn'>,
): HookedParents {
  let copy: { version: number; loadedAt: number; sets: Promise<HookedParentSets> } | null = null;

  // Along the `{parentKind, parentId, _id}` index, as every read of hooks by parent.
  const parentIds = async (kind: 'project' | 'group'): Promise<Set<number>> => {
    const rows = await hooks
      .find({ parentKind: kind }, { parentId: 1, _id: 0 })
      .sort({ parentKind: 1, parentId: 1, _id: 1 })
      .lean<Pick<HookDoc, 'parentId'>[]>();
    return new Set(rows.map((row) => row.parentId));
  };

  const load = async (): Promise<HookedParentSets> => {
    const [projects, groups] = await Promise.all([parentIds('project'), parentIds('group')]);
    return { projects, groups };
  };

  return {
    async current() {
      let version: number;
      try {
        [version] = (await versions.current([HOOKED_PARENTS_KEY])) as [number];
      } catch {
        return null;
      }
      const now = Date.now();
      if (!copy || copy.version !== version || now - copy.loadedAt > MAX_AGE_MS) {
        const loading = { version, loadedAt: now, sets: load() };
        copy = loading;
        loading.sets.catch(() => {
          if (copy === loading) copy = null;
        });
      }
      return copy.sets;
    },
    async added() {
      copy = null;
      try {
        await versions.bump([HOOKED_PARENTS_KEY]);
      } catch (err) {
        // Other processes see the hook when their copy ages out (MAX_AGE_MS).
        logger.warn({ err }, 'hooks: could not announce a new hook; other processes see it within 10 s');
      }
    },
  };
}
