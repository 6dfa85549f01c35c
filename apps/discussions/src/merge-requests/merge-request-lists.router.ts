import { Router } from 'express';
import { createIssuablePages, type IssuablePagesDeps } from '../lists/issuable-pages';
import { routeIssuableLists } from '../noteables/issuable-list-routes';

/** Merge request lists at every scope (lib/api/merge_requests.rb) and a group milestone's merge requests. */
export function createMergeRequestListsRouter(deps: IssuablePagesDeps): Router {
  const router = Router();
  routeIssuableLists(router, 'MergeRequest', deps, createIssuablePages(deps));
  return router;
}
