import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Project and group webhooks. Sources: lib/api/project_hooks.rb (`authenticate!`, then `authorize!
 * :admin_web_hook`, which ProjectPolicy grants Maintainers with admin_project), ee/lib/api/group_hooks.rb
 * (`authorize! :admin_web_hook, user_group`: Owners, where the licence has group webhooks). One hook of each
 * kind is among the matrix's resources; deletes get fresh ones.
 */
const PROJECT = 'lib/api/project_hooks.rb: authorize! :admin_web_hook (ProjectPolicy: maintainer) → 403';
const GROUP =
  'ee/lib/api/group_hooks.rb: authorize! :admin_web_hook, user_group (EE GroupPolicy: owner) → 403';

const body = () => ({
  url: `https://hooks.example.com/${unique('h')}`,
  issues_events: true,
});

export const HOOK_RULES: Rules = {
  listProjectHooks: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    source: PROJECT,
  },
  createProjectHook: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body,
    source: PROJECT,
  },
  getProjectHook: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    params: (c) => ({ hook_id: c.r.projectHookId }),
    source: PROJECT,
  },
  updateProjectHook: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    params: (c) => ({ hook_id: c.r.projectHookId }),
    body: () => ({ note_events: true }),
    source: PROJECT,
  },
  deleteProjectHook: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    fresh: 'projectHook',
    source: PROJECT,
  },
  listProjectHookEvents: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    params: (c) => ({ hook_id: c.r.projectHookId }),
    source: `${PROJECT}; lib/api/hooks/events.rb mounted under it`,
  },
  resendProjectHookEvent: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    params: (c) => ({ hook_id: c.r.projectHookId, hook_log_id: c.r.projectHookLogId }),
    source: `${PROJECT}; lib/api/hooks/resend_hook.rb mounted under it`,
  },
  // push_events answers 422 "Testing not available for this hook" here, so no cell sends anything.
  testProjectHook: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    params: (c) => ({ hook_id: c.r.projectHookId, trigger: 'push_events' }),
    source: `${PROJECT}; lib/api/hooks/trigger_test.rb mounted under it`,
  },
  listGroupHooks: {
    target: 'group',
    see: VISIBLE,
    need: 'owner',
    source: GROUP,
  },
  createGroupHook: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    body,
    source: GROUP,
  },
  getGroupHook: {
    target: 'group',
    see: VISIBLE,
    need: 'owner',
    params: (c) => ({ hook_id: c.r.groupHookId }),
    source: GROUP,
  },
  updateGroupHook: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    params: (c) => ({ hook_id: c.r.groupHookId }),
    body: () => ({ member_events: true }),
    source: GROUP,
  },
  deleteGroupHook: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    fresh: 'groupHook',
    source: GROUP,
  },
  listGroupHookEvents: {
    target: 'group',
    see: VISIBLE,
    need: 'owner',
    params: (c) => ({ hook_id: c.r.groupHookId }),
    source: `${GROUP}; lib/api/hooks/events.rb mounted under it`,
  },
  resendGroupHookEvent: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    params: (c) => ({ hook_id: c.r.groupHookId, hook_log_id: c.r.groupHookLogId }),
    source: `${GROUP}; lib/api/hooks/resend_hook.rb mounted under it`,
  },
  // push_events is 422 ("Ensure the group has a project with commits." or "Testing not available for
  // this hook"), so no cell sends anything.
  testGroupHook: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    params: (c) => ({ hook_id: c.r.groupHookId, trigger: 'push_events' }),
    source: `${GROUP}; lib/api/hooks/trigger_test.rb mounted under it (TestHooks::GroupService)`,
  },
};
