import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Project milestones. lib/api/project_milestones.rb runs `before { authenticate! }` (anonymous reads too
 * are 401), finds the project with user_project (404), reads with read_milestone (whoever reads the
 * project) and writes with admin_milestone (app/policies/project_policy.rb: Reporter); promotion also
 * asks admin_milestone on the project's group.
 */
const source = 'lib/api/project_milestones.rb (`before { authenticate! }`), lib/api/milestone_responses.rb';

export const PROJECT_MILESTONE_RULES: Rules = {
  listProjectMilestoneIssues: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ milestone_id: c.r.projectMilestoneId }),
    source: `${source}: authorize! :read_milestone; milestone_issuables_for (IssuesFinder over the project)`,
  },
  listProjectMilestoneMergeRequests: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ milestone_id: c.r.projectMilestoneId }),
    source:
      `${source}: authorize! :read_milestone; milestone_issuables_for (MergeRequestsFinder over the ` +
      'project: a Guest of a private project finds none)',
  },
  listProjectMilestones: {
    target: 'project',
    see: VISIBLE,
    source: `${source}: authorize! :read_milestone, user_project; list_milestones_for`,
  },
  getProjectMilestone: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ milestone_id: c.r.projectMilestoneId }),
    source: `${source}: authorize! :read_milestone; get_milestone_for`,
  },
  createProjectMilestone: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ title: unique('pms-') }),
    source: `${source}: authorize! :admin_milestone, user_project; create_milestone_for`,
  },
  updateProjectMilestone: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    params: (c) => ({ milestone_id: c.r.projectMilestoneId }),
    body: () => ({ description: `matrix ${unique('d')}` }),
    source: `${source}: authorize! :admin_milestone, user_project; update_milestone_for`,
  },
  deleteProjectMilestone: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'projectMilestone',
    source: `${source}: authorize! :admin_milestone; Milestones::DestroyService`,
  },
  promoteProjectMilestone: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'projectMilestone',
    source: `${source}: authorize! :admin_milestone on user_project and on its group; Milestones::PromoteService`,
  },
};
