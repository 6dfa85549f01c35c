import type { Router } from 'express';
import { DISCUSSIONS_API } from '@gl/contracts';
import { ForbiddenError, route } from '@gl/service-kit';
import { canReadMergeRequests, readableNamespace } from '../common/access';
import {
  instanceListParams,
  listParams,
  type IssuablePagesDeps,
  type createIssuablePages,
} from '../lists/issuable-pages';

/**
 * The lists issues (lib/api/issues.rb) and merge requests (lib/api/merge_requests.rb) have alike, by
 * scope: each the same route of either kind.
 */
const LISTS = {
  project: {
    Issue: DISCUSSIONS_API.listProjectIssues,
    MergeRequest: DISCUSSIONS_API.listProjectMergeRequests,
  },
  group: { Issue: DISCUSSIONS_API.listGroupIssues, MergeRequest: DISCUSSIONS_API.listGroupMergeRequests },
  instance: { Issue: DISCUSSIONS_API.listIssues, MergeRequest: DISCUSSIONS_API.listMergeRequests },
  groupMilestone: {
    Issue: DISCUSSIONS_API.listGroupMilestoneIssues,
    MergeRequest: DISCUSSIONS_API.listGroupMilestoneMergeRequests,
  },
  projectMilestone: {
    Issue: DISCUSSIONS_API.listProjectMilestoneIssues,
    MergeRequest: DISCUSSIONS_API.listProjectMilestoneMergeRequests,
  },
};

/** Routes the lists of `kind` at every scope, and a group's or a project's milestone's. */
export function routeIssuableLists(
  router: Router,
  kind: 'Issue' | 'MergeRequest',
  { scope }: Pick<IssuablePagesDeps, 'scope'>,
  pages: ReturnType<typeof createIssuablePages>,
): void {
  route(router, LISTS.project[kind], async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    // Merge requests: `authorize! :read_merge_request, user_project` → 403.
    if (kind === 'MergeRequest' && !canReadMergeRequests(req.ctx)) throw new ForbiddenError();
    const query = listParams(req, params);
    await pages.sendList(req, res, kind, query, scope.ofProject(req.ctx, ns), ns);
  });

  route(router, LISTS.group[kind], async ({ req, res, params }) => {
    const query = listParams(req, params);
    const projects = await pages.groupProjects(req, res);
    await pages.sendList(req, res, kind, query, projects);
  });

  route(router, LISTS.instance[kind], async ({ req, res, params }) => {
    const query = instanceListParams(req, params);
    await pages.sendList(req, res, kind, query, await pages.instanceProjects(req, res));
  });

  route(router, LISTS.groupMilestone[kind], async ({ req, res, params }) => {
    await pages.sendMilestoneList(req, res, kind, params().milestone_id);
  });

  route(router, LISTS.projectMilestone[kind], async ({ req, res, params }) => {
    await pages.sendProjectMilestoneList(req, res, kind, params().milestone_id);
  });
}
