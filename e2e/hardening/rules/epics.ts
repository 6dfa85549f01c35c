import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Epics beyond create, list and read. Sources: ee/lib/api/epics.rb, ee/app/policies/epic_policy.rb,
 * ee/app/policies/ee/group_policy.rb (admin_epic: reporter; destroy_epic: owner).
 */
export const EPIC_RULES: Rules = {
  updateGroupEpic: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ description: `edited ${unique('d')}` }),
    variants: [
      {
        name: 'confidential epic',
        params: (c) => ({ epic_iid: c.r.confidentialEpic.iid }),
        need: 'reporter',
        denied: 403,
        source:
          'ee/app/policies/epic_policy.rb: confidential & ~planner_or_reporter_access prevents read_epic',
      },
    ],
    source:
      'ee/lib/api/epics.rb `put ":id/epics/:epic_iid"`: authorize_can_admin_epic! (admin_epic: reporter) → 403',
  },
  deleteGroupEpic: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    fresh: 'epic',
    source:
      'ee/lib/api/epics.rb `delete ":id/epics/:epic_iid"`: authorize_can_destroy! (destroy_epic: owner) → 403',
  },
};

/** The issues of an epic. Source: ee/lib/api/epic_issues.rb. */
export const EPIC_ISSUE_RULES: Rules = {
  listGroupEpicIssues: {
    target: 'group',
    see: VISIBLE,
    variants: [
      {
        name: 'confidential epic',
        params: (c) => ({ epic_iid: c.r.confidentialEpic.iid }),
        need: 'reporter',
        denied: 403,
        source: 'ee/lib/api/epic_issues.rb: authorize_can_read! → 403 (confidential epic: reporter)',
      },
    ],
    source: 'ee/lib/api/epic_issues.rb `get ":id/epics/:epic_iid/issues"`: authorize_can_read! → 403',
  },
  assignGroupEpicIssue: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'epicIssue',
    source:
      'ee/lib/api/epic_issues.rb `post ":id/epics/:epic_iid/issues/:issue_id"`: authorize_can_admin_epic_link! ' +
      '(admin_epic_relation: reporter) → 403',
  },
  removeGroupEpicIssue: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'epicIssueLink',
    source:
      'ee/lib/api/epic_issues.rb `delete ":id/epics/:epic_iid/issues/:epic_issue_id"`: ' +
      'authorize_can_admin_epic_link! → 403',
  },
};
