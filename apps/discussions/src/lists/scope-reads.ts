import type { InternalContext } from '@gl/contracts';
import {
  createProjectionReadCache,
  type MembershipDoc,
  type ProjectionRevisions,
  type ProjectionVersion,
} from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { ProjectCopy } from './issuables.scope';

type RevisionContext = Pick<InternalContext, 'principal' | 'identityRevision'>;

export interface ScopeReads {
  /** The projects of a root group's tree, destroyed ones left out. */
  tree(rootGroupId: number, ctx: RevisionContext): Promise<ProjectCopy[]>;
  /** A user's membership rows (expired ones too: their users decide by date). */
  memberships(userId: number, ctx: RevisionContext): Promise<MembershipDoc[]>;
}

/** Entries kept per kind; the least recently loaded goes first. */
const MAX_ENTRIES = 10_000;
export const SCOPE_READS_TTL_MS = 5_000;

/**
 * The two projection reads every group list of issues or merge requests made per request (the root
 * group's projects and the caller's memberships: 2 of a board column's 5 database commands), kept per
 * process as the events service keeps its access rows, by the rules of `createProjectionReadCache`
 * (service-kit): read again after this process's consumer wrote, when a request needs newer identity
 * revisions than an entry was read at, and after `ttlMs` (0 keeps nothing).
 */
export function createScopeReads(
  models: Pick<DiscussionsModels, 'projects' | 'members'>,
  changes: ProjectionVersion,
  revisions: Pick<ProjectionRevisions, 'known'> | null,
  ttlMs = SCOPE_READS_TTL_MS,
): ScopeReads {
  const trees = createProjectionReadCache<number, ProjectCopy[]>(changes, ttlMs, MAX_ENTRIES);
  const members = createProjectionReadCache<number, MembershipDoc[]>(changes, ttlMs, MAX_ENTRIES);

  const known = (userId: number | null) => revisions?.known(userId) ?? { user: 0, visibility: 0 };

  return {
    tree: (rootGroupId, ctx) =>
      trees.get(rootGroupId, ctx.identityRevision?.visibility ?? 0, known(null).visibility, () =>
        models.projects
          .find({ rootGroupId, destroyed: { $ne: true } })
          .lean<ProjectCopy[]>()
          .exec(),
      ),
    // The context's user revision is the caller's; nothing is required of anyone else's rows.
    memberships: (userId, ctx) =>
      members.get(
        userId,
        userId === ctx.principal?.id ? (ctx.identityRevision?.user ?? 0) : 0,
        known(userId).user,
        () => models.members.find({ userId }).lean<MembershipDoc[]>().exec(),
      ),
  };
}
