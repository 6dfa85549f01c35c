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
};
