import { Router } from 'express';
import { DISCUSSIONS_API } from '@gl/contracts';
import { route, sendJson } from '@gl/service-kit';
import { readableNamespace } from '../common/access';
import { viewerOfContext } from '../lists/issuables.scope';
import {
  createIssuablePages,
  instanceListParams,
  listParams,
  type IssuablePagesDeps,
} from '../lists/issuable-pages';
import { routeIssuableLists } from '../noteables/issuable-list-routes';

/**
 * Issue lists at every scope (lib/api/issues.rb), a group milestone's issues, and issue statistics
 * (lib/api/helpers/issues_helpers.rb `issues_statistics`).
 */
export function createIssueListsRouter(deps: IssuablePagesDeps): Router {
  const { lists, scope } = deps;
  const pages = createIssuablePages(deps);
  const { groupProjects, instanceProjects } = pages;
  const router = Router();

  routeIssuableLists(router, 'Issue', deps, pages);

  route(router, DISCUSSIONS_API.getProjectIssuesStatistics, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    const query = listParams(req, params);
    const body = await lists.statistics(query, scope.ofProject(req.ctx, ns), viewerOfContext(req.ctx));
    sendJson(res, 200, body);
  });

  route(router, DISCUSSIONS_API.getGroupIssuesStatistics, async ({ req, res, params }) => {
    const query = listParams(req, params);
    const projects = await groupProjects(req, res);
    sendJson(res, 200, await lists.statistics(query, projects, viewerOfContext(req.ctx)));
  });

  route(router, DISCUSSIONS_API.getIssuesStatistics, async ({ req, res, params }) => {
    const query = instanceListParams(req, params);
    const projects = await instanceProjects(req, res);
    sendJson(res, 200, await lists.statistics(query, projects, viewerOfContext(req.ctx)));
  });

  return router;
}
