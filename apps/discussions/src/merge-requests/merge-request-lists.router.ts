import { Router } from 'express';
import { DISCUSSIONS_API } from '@gl/contracts';
import { ForbiddenError, route } from '@gl/service-kit';
import { canReadMergeRequests, readableNamespace } from '../common/access';
import {
  createIssuablePages,
  instanceListParams,
  listParams,
  type IssuablePagesDeps,
} from '../lists/issuable-pages';

/** Merge request lists at every scope (lib/api/merge_requests.rb) and a group milestone's merge requests. */
export function createMergeRequestListsRouter(deps: IssuablePagesDeps): Router {
  const { scope } = deps;
  const { sendList, groupProjects, instanceProjects, sendMilestoneList, sendProjectMilestoneList } =
    createIssuablePages(deps);
  const router = Router();

  route(router, DISCUSSIONS_API.listProjectMergeRequests, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    // `authorize! :read_merge_request, user_project` → 403.
    if (!canReadMergeRequests(req.ctx)) throw new ForbiddenError();
    const query = listParams(req, params);
    await sendList(req, res, 'MergeRequest', query, scope.ofProject(req.ctx, ns), ns);
  });

  route(router, DISCUSSIONS_API.listGroupMergeRequests, async ({ req, res, params }) => {
    const query = listParams(req, params);
    const projects = await groupProjects(req, res);
    await sendList(req, res, 'MergeRequest', query, projects);
  });

  route(router, DISCUSSIONS_API.listMergeRequests, async ({ req, res, params }) => {
    const query = instanceListParams(req, params);
    await sendList(req, res, 'MergeRequest', query, await instanceProjects(req, res));
  });

  route(router, DISCUSSIONS_API.listGroupMilestoneMergeRequests, async ({ req, res, params }) => {
    const { milestone_id } = params();
    await sendMilestoneList(req, res, 'MergeRequest', milestone_id);
  });

  route(router, DISCUSSIONS_API.listProjectMilestoneMergeRequests, async ({ req, res, params }) => {
    await sendProjectMilestoneList(req, res, 'MergeRequest', params().milestone_id);
  });

  return router;
}
