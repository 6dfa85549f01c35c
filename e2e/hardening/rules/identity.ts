import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Users, groups, projects, members and stars (the gateway's identity catalogue). Sources are GitLab's:
 * lib/api/users.rb, groups.rb, projects.rb, members.rb, project_starrers / projects.rb (star),
 * app/policies/group_policy.rb, app/policies/project_policy.rb.
 */
export const IDENTITY_RULES: Rules = {
  getCurrentUser: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/users.rb `get "user"`: authenticate! (api_guard allows read_api on GET)',
  },
  listCurrentUserEmails: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/users.rb `get "user/emails"`: authenticate!',
  },
  listUsers: {
    target: 'none',
    anonymous: 403,
    see: 'signed-in',
    source:
      'lib/api/users.rb `get` /users: an anonymous caller without `username` gets ' +
      'forbidden!("Not authorized to access /api/v4/users")',
  },
  createUser: {
    target: 'none',
    see: 'signed-in',
    role: 'admin',
    body: () => {
      const username = unique('mxnew');
      return { username, name: username, email: `${username}@example.com`, password: 'Correct-horse-9' };
    },
    source: 'lib/api/users.rb `post` /users: authenticated_as_admin!',
  },
  getUser: {
    target: 'none',
    anonymous: 403,
    see: 'signed-in',
    params: (c) => ({ id: c.world.bystander.id }),
    source: 'lib/api/users.rb `get ":id"`: forbidden!(\'Not authorized!\') unless current_user',
  },
  createPersonalAccessToken: {
    target: 'none',
    see: 'signed-in',
    role: 'admin',
    params: (c) => ({ id: c.world.bystander.id }),
    body: () => ({ name: 'matrix', scopes: ['read_api'] }),
    source: 'lib/api/users.rb `post ":user_id/personal_access_tokens"`: authenticated_as_admin!',
  },
  listUserEmails: {
    target: 'none',
    see: 'signed-in',
    role: 'admin',
    params: (c) => ({ id: c.world.bystander.id }),
    source: 'lib/api/users.rb `get ":id/emails"`: authenticated_as_admin!',
  },
  addUserEmail: {
    target: 'none',
    see: 'signed-in',
    role: 'admin',
    params: (c) => ({ id: c.world.bystander.id }),
    body: () => ({ email: `${unique('mxmail')}@example.com` }),
    source: 'lib/api/users.rb `post ":id/emails"`: authenticated_as_admin!',
  },
  listGroups: {
    target: 'none',
    see: 'anyone',
    source: 'lib/api/groups.rb `get` /groups: public groups for anonymous callers',
  },
  createGroup: {
    target: 'group',
    see: VISIBLE,
    role: 'maintainer',
    body: (c) => {
      const path = unique('mxsub');
      return { name: path, path, parent_id: c.target.group.id, visibility: c.visibility };
    },
    variants: [
      {
        name: 'public subgroup',
        body: (c) => {
          const path = unique('mxsub');
          return { name: path, path, parent_id: c.target.group.id, visibility: 'public' };
        },
        role: 'maintainer',
        invalidOn: ['private', 'internal'],
        source:
          'app/models/group.rb visibility_level_allowed_by_parent: a subgroup is never more visible than ' +
          'its parent → 400 with the model error',
      },
    ],
    source:
      'lib/api/groups.rb `post`: find_group!(parent_id) then authorize! :create_subgroup; GroupPolicy: ' +
      'maintainer & maintainer_can_create_group (the default subgroup_creation_level), owner',
  },
  getGroup: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/groups.rb `get ":id"`: find_group! → 404; GroupPolicy read_group',
  },
  updateGroup: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    body: () => ({ description: `matrix ${unique('d')}` }),
    source: 'lib/api/groups.rb `put ":id"`: authorize! :admin_group; GroupPolicy owner → admin_group',
  },
  deleteGroup: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    fresh: 'subgroup',
    source: 'lib/api/groups.rb `delete ":id"`: authorize! :remove_group; GroupPolicy owner → remove_group',
  },
  listGroupProjects: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/groups.rb `get ":id/projects"`: find_group!',
  },
  listSubgroups: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/groups.rb `get ":id/subgroups"`: find_group!',
  },
  listProjects: {
    target: 'none',
    see: 'anyone',
    source: 'lib/api/projects.rb `get` /projects: public projects for anonymous callers',
  },
  createProject: {
    target: 'group',
    see: VISIBLE,
    hidden: 400,
    role: 'developer',
    roleDenied: 400,
    body: (c) => {
      const path = unique('mxproj');
      return { name: path, path, namespace_id: c.target.group.id, visibility: c.visibility };
    },
    variants: [
      {
        name: 'public project',
        body: (c) => {
          const path = unique('mxproj');
          return { name: path, path, namespace_id: c.target.group.id, visibility: 'public' };
        },
        role: 'developer',
        source:
          'app/services/projects/create_service.rb: `@project.visibility_level = ' +
          '@project.group.visibility_level unless @project.visibility_level_allowed_by_group?` caps it to ' +
          "the group's level before the model validates, so 201 (only an update answers 400)",
      },
    ],
    source:
      'app/services/projects/create_service.rb: a namespace the user may not create_projects in → ' +
      'deny_namespace → 400 {"message":{"namespace":["is not valid"]}}; GroupPolicy create_projects: ' +
      'developer with the default project_creation_level (DEVELOPER_MAINTAINER_PROJECT_ACCESS)',
  },
  getProject: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/projects.rb `get ":id"`: user_project → find_project! → 404; ProjectPolicy read_project',
  },
  updateProject: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ description: `matrix ${unique('d')}` }),
    source: 'lib/api/projects.rb `put ":id"`: authorize_admin_project (admin_project: maintainer)',
  },
  deleteProject: {
    target: 'project',
    see: VISIBLE,
    role: 'owner',
    fresh: 'project',
    source: 'lib/api/projects.rb `delete ":id"`: authorize! :remove_project (ProjectPolicy owner_access)',
  },
  starProject: {
    target: 'project',
    see: VISIBLE,
    role: 'signed-in',
    source: 'lib/api/projects.rb `post ":id/star"`: authenticate!, user_project (any user who sees it)',
  },
  unstarProject: {
    target: 'project',
    see: VISIBLE,
    role: 'signed-in',
    source: 'lib/api/projects.rb `post ":id/unstar"`: authenticate!, user_project',
  },
  listStarrers: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/projects.rb `get ":id/starrers"`: user_project',
  },
  listGroupMembers: {
    target: 'group',
    see: VISIBLE,
    source:
      'lib/api/members.rb: before { authenticate! }; find_source → 404; authorize_read_source_member! ' +
      '(GroupPolicy read_group_member: whoever reads the group)',
  },
  listAllGroupMembers: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/members.rb `get ":id/members/all"`: as the members list',
  },
  getAllGroupMember: {
    target: 'group',
    see: VISIBLE,
    params: (c) => ({ user_id: c.world.people.developer.id }),
    source: 'lib/api/members.rb `get ":id/members/all/:user_id"`: as the members list',
  },
  getGroupMember: {
    target: 'group',
    see: VISIBLE,
    params: (c) => ({ user_id: c.world.people.developer.id }),
    source: 'lib/api/members.rb `get ":id/members/:user_id"`: as the members list',
  },
  addGroupMember: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    body: (c) => ({ user_id: c.world.bystander.id, access_level: 10 }),
    source:
      'lib/api/members.rb `post ":id/members"` + helpers/members_helpers.rb: authorize_admin_source! before ' +
      'the duplicate check (409 only for those allowed); GroupPolicy owner → admin_group_member',
  },
  updateGroupMember: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    params: (c) => ({ user_id: c.world.people.developer.id }),
    body: () => ({ access_level: 30 }),
    source: 'lib/api/members.rb `put`: authorize_update_source_member! (admin_group_member: owner)',
  },
  removeGroupMember: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    fresh: 'groupMember',
    source: 'lib/api/members.rb `delete`: Members::DestroyService (destroy_group_member: admin_group_member)',
  },
  listProjectMembers: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/members.rb: authenticate!, find_source, read_project_member (whoever reads the project)',
  },
  listAllProjectMembers: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/members.rb `get ":id/members/all"`',
  },
  getAllProjectMember: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ user_id: c.r.projectMemberId }),
    source: 'lib/api/members.rb `get ":id/members/all/:user_id"`',
  },
  getProjectMember: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ user_id: c.r.projectMemberId }),
    source: 'lib/api/members.rb `get ":id/members/:user_id"`',
  },
  addProjectMember: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: (c) => ({ user_id: c.r.projectMemberId, access_level: 10 }),
    source:
      'lib/api/members.rb `post`: authorize_admin_source! (ProjectPolicy admin_project_member: maintainer)',
  },
  updateProjectMember: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    params: (c) => ({ user_id: c.r.projectMemberId }),
    body: () => ({ access_level: 10 }),
    source: 'lib/api/members.rb `put`: authorize_update_source_member! (update_project_member: maintainer)',
  },
  removeProjectMember: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    fresh: 'projectMember',
    source: 'lib/api/members.rb `delete`: Members::DestroyService (destroy_project_member: maintainer)',
  },
};
