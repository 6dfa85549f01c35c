import { Router } from 'express';
import {
  BOARDS_API,
  type InternalContext,
  type MilestoneEntity,
  type NamespaceContext,
  type ProjectMilestoneEntity,
} from '@gl/contracts';
import {
  ForbiddenError,
  ParamError,
  collectParams,
  mutuallyExclusive,
  requireUser,
  route,
  sendJson,
  sendNoContent,
} from '@gl/service-kit';
import { sendPage } from '../common/http';
import {
  labelAdmin,
  labelsAvailable,
  readableProject,
  requireGroupReporter,
} from '../labels/project-labels.access';
import { presentMilestone, presentProjectMilestone, projectGroupWebUrl } from './milestones.presenter';
import { routeMilestoneWrites } from './milestone-write-routes';
import type { AvailableMilestone, ProjectMilestonesService } from './project-milestones.service';

/** A project milestone, or a group milestone listed through the project (its link is the group's). */
function presentListed(
  m: AvailableMilestone,
  ns: NamespaceContext,
): ProjectMilestoneEntity | MilestoneEntity {
  if (m.project) return presentProjectMilestone(m.doc, ns);
  return presentMilestone(m.doc, projectGroupWebUrl(ns, m.doc.groupId));
}

/**
 * `authorize! :read_milestone, user_project`: a readable project (404), then milestones available to the
 * caller (app/policies/project_policy.rb prevents every milestone ability, as every label ability, when
 * both issues and merge requests are unavailable): 403.
 */
function milestoneReader(ctx: InternalContext): NamespaceContext {
  requireUser(ctx);
  const ns = readableProject(ctx);
  if (!labelsAvailable(ctx, ns)) throw new ForbiddenError();
  return ns;
}

/** `authorize! :admin_milestone, user_project`: Reporter and up, with the same availability (401, 404, 403). */
function milestoneAdmin(ctx: InternalContext) {
  const { user, ns } = labelAdmin(ctx);
  return { user, ns, requestId: ctx.requestId };
}

/** lib/api/project_milestones.rb. */
export function createProjectMilestonesRouter(milestones: ProjectMilestonesService): Router {
  const router = Router();

  route(router, BOARDS_API.listProjectMilestones, async ({ req, res, ctx, params }) => {
    const ns = milestoneReader(ctx);
    const broken = mutuallyExclusive('include_ancestors', 'include_parent_milestones')(collectParams(req));
    if (broken) throw new ParamError([broken]);
    const query = params();
    const withGroups = (query.include_ancestors ?? query.include_parent_milestones) === true;
    const filter = {
      state: query.state,
      title: query.title,
      search: query.search,
      iids: query.iids,
      updatedBefore: query.updated_before,
      updatedAfter: query.updated_after,
    };
    await sendPage(
      req,
      res,
      async (page) => {
        const { total, items } = await milestones.page(ns, withGroups, filter, page);
        return { total, docs: items };
      },
      (items) => items.map((m) => presentListed(m, ns)),
    );
  });

  route(router, BOARDS_API.getProjectMilestone, async ({ res, ctx, params }) => {
    const ns = milestoneReader(ctx);
    sendJson(res, 200, presentProjectMilestone(await milestones.get(ns, params().milestone_id), ns));
  });

  routeMilestoneWrites(router, 'Project', {
    writerOf: milestoneAdmin,
    service: milestones,
    present: (milestone, writer) => presentProjectMilestone(milestone, writer.ns),
    updatable: ['title', 'description', 'start_date', 'due_date', 'state_event'],
  });

  route(router, BOARDS_API.deleteProjectMilestone, async ({ res, ctx, params }) => {
    await milestones.remove(milestoneAdmin(ctx), params().milestone_id);
    sendNoContent(res);
  });

  // admin_milestone on the project, then on its group: a project outside a group has none (`can?` on nil),
  // so that is a 403 before the milestone is looked up; in a group, Reporter there (not only in the project).
  route(router, BOARDS_API.promoteProjectMilestone, async ({ res, ctx, params }) => {
    const writer = milestoneAdmin(ctx);
    if (writer.ns.ancestorGroupIds.length === 0) throw new ForbiddenError();
    requireGroupReporter(ctx);
    await milestones.promote(writer, params().milestone_id);
    sendJson(res, 200, 200);
  });

  return router;
}
