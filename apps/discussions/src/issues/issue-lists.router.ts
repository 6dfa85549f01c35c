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

/**
 * Issue lists at every scope (lib/api/issues.rb), a group milestone's issues, and issue statistics
 * (lib/api/helpers/issues_helpers.rb `issues_statistics`).
 */
export function createIssueListsRouter(deps: IssuablePagesDeps): Router {
  const { lists, scope } = deps;
  const { sendList, groupProjects, instanceProjects, sendMilestoneList, sendProjectMilestoneList } =
    createIssuablePages(deps);
  const router = Router();

  route(router, DISCUSSIONS_API.listProjectIssues, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    const query = listParams(req, params);
    await sendList(req, res, 'Issue', query, scope.ofProject(req.ctx, ns), ns);
  });

  route(router, DISCUSSIONS_API.listGroupIssues, async ({ req, res, params }) => {
    const query = listParams(req, params);
    const projects = await groupProjects(req, res);
    await sendList(req, res, 'Issue', query, projects);
  });

  route(router, DISCUSSIONS_API.listIssues, async ({ req, res, params }) => {
    const query = instanceListParams(req, params);
    await sendList(req, res, 'Issue', query, await instanceProjects(req, res));
  });

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

  route(router, DISCUSSIONS_API.listGroupMilestoneIssues, async ({ req, res, params }) => {
    const { milestone_id } = params();
    await sendMilestoneList(req, res, 'Issue', milestone_id);
  });

  route(router, DISCUSSIONS_API.listProjectMilestoneIssues, async ({ req, res, params }) => {
    await sendProjectMilestoneList(req, res, 'Issue', params().milestone_id);
  });

  return router;
}
