import type { IssueListQuery, IssueStatisticsQuery, MergeRequestListQuery } from '@gl/contracts';
import { issuableFilter, namesOf, type FinderViewer, type IssuableKind } from './issuables.finder';
import { issuableOrder } from './issuable-order';
import { rootScopeOf } from './root-scope';
import { keysetOrderOf, readListCursor } from './issuable-keyset';
import type { IssuablesScope, ScopeProject } from './issuables.scope';
import type { CountedPage, NoteablesStore } from '../noteables/noteables.store';

type ListQuery = IssueListQuery | MergeRequestListQuery;

/**
 * Lists and counts of issues and merge requests at any scope: the scope gives the readable projects, the
 * finder turns the query into one filter, the order sorts it, the store reads one page along an index.
 */
export function createIssuableLists(store: NoteablesStore, scope: IssuablesScope) {
  async function filterOf(
    kind: IssuableKind,
    query: ListQuery | IssueStatisticsQuery,
    projects: ScopeProject[],
    viewer: FinderViewer,
    withState: boolean,
  ) {
    const lookups = await scope.lookups(namesOf(query), projects, viewer.userId);
    const rootScope = rootScopeOf(kind, projects);
    return issuableFilter({ kind, query, projects, viewer, lookups, rootScope }, { withState });
  }

  /** One page of a list, and the number of items the whole list has (X-Total), up to GitLab's limit. */
  async function page(
    kind: IssuableKind,
    query: ListQuery,
    projects: ScopeProject[],
    viewer: FinderViewer,
    window: { skip: number; limit: number },
  ): Promise<CountedPage> {
    const filter = await filterOf(kind, query, projects, viewer, true);
    const order = issuableOrder(query.order_by, query.sort);
    return store.pageWhere(filter, order, window.skip, window.limit);
  }

  /**
   * One keyset page (`pagination=keyset`): the order first (405 for one no index range serves), then the
   * cursor (400 when this server did not write it), then `limit` items from the cursor on and the next
   * page's cursor while more follow.
   */
  async function keysetPage(
    kind: IssuableKind,
    query: ListQuery,
    projects: ScopeProject[],
    viewer: FinderViewer,
    limit: number,
  ) {
    const order = keysetOrderOf(query.order_by, query.sort);
    const after = readListCursor(order, query.cursor);
    const filter = await filterOf(kind, query, projects, viewer, true);
    return scope.keyset.seek(filter, order, after, limit);
  }

  /** Gitlab::IssuablesCountForState: the list's issues by state, whatever `state` says. */
  async function statistics(query: IssueStatisticsQuery, projects: ScopeProject[], viewer: FinderViewer) {
    const filter = await filterOf('Issue', query, projects, viewer, false);
    const [opened, closed] = await Promise.all([
      store.countWhere({ $and: [filter, { state: 'opened' }] }),
      store.countWhere({ $and: [filter, { state: 'closed' }] }),
    ]);
    return { statistics: { counts: { all: opened + closed, closed, opened } } };
  }

  return { page, keysetPage, statistics };
}

export type IssuableLists = ReturnType<typeof createIssuableLists>;
