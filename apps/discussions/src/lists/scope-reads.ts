import type { InternalContext } from '@gl/contracts';
import type { MembershipDoc, ProjectionRevisions, ProjectionVersion } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { ProjectCopy } from './issuables.scope';

type RevisionContext = Pick<InternalContext, 'principal' | 'identityRevision'>;

export interface ScopeReads {
  /** The projects of a root group's tree, destroyed ones left out. */
  tree(rootGroupId: number, ctx: RevisionContext): Promise<ProjectCopy[]>;
  /** A user's membership rows (expired ones too: their users decide by date). */
  memberships(userId: number, ctx: RevisionContext): Promise<MembershipDoc[]>;
}

interface Entry<T> {
  changes: number;
  loadedAt: number;
  /** The identity revision the projection had applied when the read started. */
  revision: number;
  value: Promise<T>;
}

/** Entries kept per kind; the least recently loaded goes first. */
const MAX_ENTRIES = 10_000;
export const SCOPE_READS_TTL_MS = 5_000;

/**
 * The two projection reads every group list of issues or merge requests made per request (the root
 * group's projects and the caller's memberships: 2 of a board column's 5 database commands), kept per
 * process as the events service keeps its access rows (apps/events/src/access.cache.ts). An entry is
 * served only while this process's consumer wrote nothing since it was read, when the projection had
 * applied at least the request's identity revisions as it was read (a change applied by another replica
 * comes with a newer revision on the next request, and the list waits for it: projectionCaughtUp), and
 * for at most `ttlMs`. With `ttlMs` 0 nothing is kept.
 */
export function createScopeReads(
  models: Pick<DiscussionsModels, 'projects' | 'members'>,
  changes: ProjectionVersion,
  revisions: Pick<ProjectionRevisions, 'known'> | null,
  ttlMs = SCOPE_READS_TTL_MS,
): ScopeReads {
  const trees = new Map<number, Entry<ProjectCopy[]>>();
  const members = new Map<number, Entry<MembershipDoc[]>>();

  function cached<T>(
    entries: Map<number, Entry<T>>,
    key: number,
    needed: number,
    revisionNow: number,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = entries.get(key);
    const now = Date.now();
    if (hit && hit.changes === changes.value && hit.revision >= needed && now - hit.loadedAt < ttlMs) {
      return hit.value;
    }
    if (ttlMs <= 0) return load();
    const entry: Entry<T> = { changes: changes.value, loadedAt: now, revision: revisionNow, value: load() };
    entry.value.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    entries.delete(key);
    entries.set(key, entry);
    // Map order is insertion order: the first key is the least recently loaded.
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return entry.value;
  }

  const known = (userId: number | null) => revisions?.known(userId) ?? { user: 0, visibility: 0 };

  return {
    tree: (rootGroupId, ctx) =>
      cached(trees, rootGroupId, ctx.identityRevision?.visibility ?? 0, known(null).visibility, () =>
        models.projects
          .find({ rootGroupId, destroyed: { $ne: true } })
          .lean<ProjectCopy[]>()
          .exec(),
      ),
    // The context's user revision is the caller's; nothing is required of anyone else's rows.
    memberships: (userId, ctx) =>
      cached(
        members,
        userId,
        userId === ctx.principal?.id ? (ctx.identityRevision?.user ?? 0) : 0,
        known(userId).user,
        () => models.members.find({ userId }).lean<MembershipDoc[]>().exec(),
      ),
  };
}
