import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Links between issues (lib/api/issue_links.rb): `before { authenticate! }`, then find_project_issue (an
 * issue the caller cannot read → 404). Linking needs admin_issue_link on the target issue
 * (app/policies/issue_policy.rb: a member, Guest and up, who reads it; admins) → 403 from
 * IssueLinks::CreateService; removing needs it on both issues → 404 "No Issue Link found"
 * (app/services/issuable_links/destroy_service.rb). The matrix links a fresh issue of the target project to
 * the target's issue, so each cell links a pair of its own.
 */
export const ISSUE_LINK_RULES: Rules = {
  listProjectIssueLinks: {
    target: 'project',
    see: VISIBLE,
    source:
      'lib/api/issue_links.rb `get ":id/issues/:issue_iid/links"`: authenticate!, find_project_issue → 404',
  },
  getProjectIssueLink: {
    target: 'project',
    see: VISIBLE,
    fresh: 'issueLink',
    source:
      'lib/api/issue_links.rb `get ":id/issues/:issue_iid/links/:issue_link_id"`: find_project_issue for the ' +
      'issue and the link target → 404',
  },
  createProjectIssueLink: {
    target: 'project',
    see: VISIBLE,
    role: 'guest',
    fresh: 'issue',
    body: (c) => ({ target_project_id: c.target.project.id, target_issue_iid: c.r.issueIid }),
    source:
      'lib/api/issue_links.rb `post ":id/issues/:issue_iid/links"`, app/services/issue_links/create_service.rb: ' +
      'admin_issue_link on the target (issue_policy.rb: guest_access & read_issue & is_project_member) → 403',
  },
  deleteProjectIssueLink: {
    target: 'project',
    see: VISIBLE,
    need: 'guest',
    denied: 404,
    fresh: 'issueLink',
    source:
      'lib/api/issue_links.rb `delete ":id/issues/:issue_iid/links/:issue_link_id"`, ' +
      'app/services/issue_links/destroy_service.rb: admin_issue_link on source and target, else 404',
  },
};
