import type { InternalContext } from '@gl/contracts';
import type { ProjectionRevisions, ProjectionVersion } from '@gl/service-kit';
import type { EventsModels, GroupDoc, MemberDoc, ProjectDoc } from './events.models';

export type ProjectAccessRow = Pick<ProjectDoc, '_id' | 'destroyed' | 'visibility' | 'ancestorGroupIds'>;
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

export interface IdentityAccessCache extends AccessCache {
  /**
   * The same cache for one request: an entry loaded before the projection had applied the request's
   * identity revisions is never served, it is read again. Call once `ProjectionRevisions.caughtUp` has
   * resolved for the request, so a read now reflects at least those revisions.
   */
  at(ctx: Pick<InternalContext, 'principal' | 'identityRevision'>): AccessCache;
}

interface Entry<T> {
  version: number;
  loadedAt: number;
  /** The identity revision the projection had applied when the read started (visibility or the user's). */
  revision: number;
  value: Promise<T>;
}

const MAX_USERS = 10_000;

/**
 * The projections every visibility check reads. Each request used to scan them (FerretDB has no index but
 * `_id`: ~150 ms with 1,000 projects); now they are read again after this process changed them, when a
 * request needs newer identity revisions than an entry was read at (a revocation applied by another
 * process, or not yet applied when the entry was read), and in any case after `ttlMs`.
 */
export function createAccessCache(
  models: EventsModels,
  version: ProjectionVersion,
  revisions: Pick<ProjectionRevisions, 'known'> | null = null,
  ttlMs = 5_000,
): IdentityAccessCache {
  let rows: Entry<AccessRows> | null = null;
  const members = new Map<number, Entry<MemberDoc[]>>();
  const fresh = <T>(entry: Entry<T> | null | undefined, needed: number): entry is Entry<T> =>
    !!entry &&
    entry.version === version.value &&
    entry.revision >= needed &&
    Date.now() - entry.loadedAt < ttlMs;
  const remember = <T>(revision: number, load: () => Promise<T>): Entry<T> => ({
    version: version.value,
    loadedAt: Date.now(),
    revision,
    value: load(),
  });
  const known = (userId: number | null) => revisions?.known(userId) ?? { user: 0, visibility: 0 };

  function loadRows(needed: number): Promise<AccessRows> {
    if (fresh(rows, needed)) return rows.value;
    const entry = remember(known(null).visibility, async () => {
      const [projects, groups] = await Promise.all([
        models.projects
          .find({})
          .select({ _id: 1, destroyed: 1, visibility: 1, ancestorGroupIds: 1 })
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
  }

  function loadMemberRows(userId: number, needed: number): Promise<MemberDoc[]> {
    const hit = members.get(userId);
    if (fresh(hit, needed)) return hit.value;
    const entry = remember(known(userId).user, () =>
      models.members.find({ userId }).lean<MemberDoc[]>().exec(),
    );
    entry.value.catch(() => members.delete(userId));
    members.delete(userId);
    members.set(userId, entry);
    // Map order is insertion order: the first key is the least recently loaded user.
    if (members.size > MAX_USERS) members.delete(members.keys().next().value!);
    return entry.value;
  }

  const at = ({ principal, identityRevision }: Pick<InternalContext, 'principal' | 'identityRevision'>) => ({
    rows: () => loadRows(identityRevision?.visibility ?? 0),
    // The context's user revision is the caller's; nothing is required of anyone else's rows.
    memberRows: (userId: number) =>
      loadMemberRows(userId, userId === principal?.id ? (identityRevision?.user ?? 0) : 0),
  });
  return { ...at({ principal: null }), at };
}
