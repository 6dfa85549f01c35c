import type { InternalContext } from '@gl/contracts';
import { createProjectionReadCache, type ProjectionRevisions, type ProjectionVersion } from '@gl/service-kit';
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

const MAX_USERS = 10_000;

/**
 * The projections every visibility check reads. Each request used to scan them (FerretDB has no index but
 * `_id`: ~150 ms with 1,000 projects); now they are read again after this process changed them, when a
 * request needs newer identity revisions than an entry was read at (a revocation applied by another
 * process, or not yet applied when the entry was read), and in any case after `ttlMs`
 * (createProjectionReadCache's rules).
 */
export function createAccessCache(
  models: EventsModels,
  version: ProjectionVersion,
  revisions: Pick<ProjectionRevisions, 'known'> | null = null,
  ttlMs = 5_000,
): IdentityAccessCache {
  // One key: every project and group. The rules (this process's writes, revisions, age) are the cache's.
  const everything = createProjectionReadCache<'all', AccessRows>(version, ttlMs, 1);
  const members = createProjectionReadCache<number, MemberDoc[]>(version, ttlMs, MAX_USERS);
  const known = (userId: number | null) => revisions?.known(userId) ?? { user: 0, visibility: 0 };

  const loadRows = (needed: number): Promise<AccessRows> =>
    everything.get('all', needed, known(null).visibility, async () => {
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

  const loadMemberRows = (userId: number, needed: number): Promise<MemberDoc[]> =>
    members.get(userId, needed, known(userId).user, () =>
      models.members.find({ userId }).lean<MemberDoc[]>().exec(),
    );

  const at = ({ principal, identityRevision }: Pick<InternalContext, 'principal' | 'identityRevision'>) => ({
    rows: () => loadRows(identityRevision?.visibility ?? 0),
    // The context's user revision is the caller's; nothing is required of anyone else's rows.
    memberRows: (userId: number) =>
      loadMemberRows(userId, userId === principal?.id ? (identityRevision?.user ?? 0) : 0),
  });
  return { ...at({ principal: null }), at };
}
