import type { EventsModels, GroupDoc, MemberDoc, ProjectDoc } from './events.models';

/**
 * Counts changes to the identity projections made by this process's consumer, so the read side reloads
 * them right after a change instead of on every request.
 */
export class ProjectionVersion {
  value = 0;
  bump(): void {
    this.value += 1;
  }
}

export type ProjectAccessRow = Pick<
  ProjectDoc,
  '_id' | 'destroyed' | 'visibility' | 'ancestorGroupIds' | 'hasActivity'
>;
export type GroupAccessRow = Pick<GroupDoc, '_id' | 'destroyed' | 'visibility' | 'ancestorGroupIds'>;

export interface AccessRows {
  projects: ProjectAccessRow[];
  groups: GroupAccessRow[];
}

export interface AccessCache {
  /** Every project and group with what visibility checks need. */
  rows(): Promise<AccessRows>;
  /** A user's membership rows. */
  memberRows(userId: number): Promise<MemberDoc[]>;
}

interface Entry<T> {
  version: number;
  loadedAt: number;
  value: Promise<T>;
}

const MAX_USERS = 10_000;

/**
 * The projections every visibility check reads. Each request used to scan them (FerretDB has no index but
 * `_id`: ~150 ms with 1,000 projects); now they are read again only after this process changed them or,
 * for changes another replica's consumer made, after `ttlMs` (the gateway's identity cache has the same bound).
 */
export function createAccessCache(
  models: EventsModels,
  version: ProjectionVersion,
  ttlMs = 5_000,
): AccessCache {
  let rows: Entry<AccessRows> | null = null;
  const members = new Map<number, Entry<MemberDoc[]>>();
  const fresh = <T>(entry: Entry<T> | null | undefined): entry is Entry<T> =>
    !!entry && entry.version === version.value && Date.now() - entry.loadedAt < ttlMs;
  const remember = <T>(load: () => Promise<T>): Entry<T> => ({
    version: version.value,
    loadedAt: Date.now(),
    value: load(),
  });
  return {
    rows() {
      if (fresh(rows)) return rows.value;
      const entry = remember(async () => {
        const [projects, groups] = await Promise.all([
          models.projects
            .find({})
            .select({ _id: 1, destroyed: 1, visibility: 1, ancestorGroupIds: 1, hasActivity: 1 })
            .lean<ProjectAccessRow[]>(),
          models.groups
            .find({})
            .select({ _id: 1, destroyed: 1, visibility: 1, ancestorGroupIds: 1 })
            .lean<GroupAccessRow[]>(),
        ]);
        return { projects, groups };
      });
      entry.value.catch(() => (rows = null));
      rows = entry;
      return entry.value;
    },
    memberRows(userId) {
      const hit = members.get(userId);
      if (fresh(hit)) return hit.value;
      const entry = remember(() => models.members.find({ userId }).lean<MemberDoc[]>().exec());
      entry.value.catch(() => members.delete(userId));
      members.delete(userId);
      members.set(userId, entry);
      // Map order is insertion order: the first key is the least recently loaded user.
      if (members.size > MAX_USERS) members.delete(members.keys().next().value!);
      return entry.value;
    },
  };
}
