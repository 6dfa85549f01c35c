import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { Rule, Rules } from './types';

/** An `authenticated_as_admin!` endpoint on a user of its own (lib/api/users.rb). */
function onFreshUser(source: string, fresh: 'user' | 'bannedUser' = 'user'): Rule {
  return { target: 'none', see: 'signed-in', role: 'admin', fresh, source };
}

/**
 * The administrators' user endpoints: moderation, profile edits, deletion, memberships (lib/api/users.rb,
 * each starting with `authenticated_as_admin!`).
 */
export const IDENTITY_ADMIN_RULES: Rules = {
  blockUser: onFreshUser('lib/api/users.rb `post ":id/block"`: authenticated_as_admin!'),
  unblockUser: onFreshUser('lib/api/users.rb `post ":id/unblock"`: authenticated_as_admin!'),
  banUser: onFreshUser('lib/api/users.rb `post ":id/ban"`: authenticated_as_admin!'),
  unbanUser: onFreshUser('lib/api/users.rb `post ":id/unban"`: authenticated_as_admin!', 'bannedUser'),
  deactivateUser: onFreshUser('lib/api/users.rb `post ":id/deactivate"`: authenticated_as_admin!'),
  activateUser: onFreshUser('lib/api/users.rb `post ":id/activate"`: authenticated_as_admin!'),
  updateUser: {
    ...onFreshUser('lib/api/users.rb `put ":id"`: authenticated_as_admin!'),
    body: () => ({ bio: 'matrix' }),
  },
  deleteUser: onFreshUser('lib/api/users.rb `delete ":id"`: authenticated_as_admin!'),
  listUserProjects: {
    target: 'none',
    see: 'anyone',
    params: (c) => ({ user_id: c.world.bystander.id }),
    source: 'lib/api/projects.rb `get ":user_id/projects"`: find_user, no authenticate!',
  },
  listUserMemberships: {
    target: 'none',
    see: 'signed-in',
    role: 'admin',
    params: (c) => ({ user_id: c.world.bystander.id }),
    source: 'lib/api/users.rb `get ":user_id/memberships"`: authenticated_as_admin!',
  },
  getCurrentUserEmail: {
    target: 'none',
    special: 'caller-owned',
    source: 'lib/api/users.rb `get "emails/:email_id"`: current_user.emails.find_by → not_found!("Email")',
  },
  addCurrentUserEmail: {
    target: 'none',
    see: 'signed-in',
    body: () => ({ email: `${unique('mxown')}@example.com` }),
    source: 'lib/api/users.rb `post "emails"` under `resource :user`: authenticate!',
  },
  deleteCurrentUserEmail: {
    target: 'none',
    special: 'caller-owned',
    source: 'lib/api/users.rb `delete "emails/:email_id"`: current_user.emails.find_by → not_found!("Email")',
  },
  deleteUserEmail: {
    target: 'none',
    special: 'caller-owned',
    source: 'lib/api/users.rb `delete ":id/emails/:email_id"`: authenticated_as_admin!',
  },
  listPersonalAccessTokens: {
    target: 'none',
    see: 'signed-in',
    source: "lib/api/personal_access_tokens.rb `get`: authenticate!; the caller's own tokens",
  },
  getCurrentPersonalAccessToken: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/personal_access_tokens.rb `get "self"`: authenticate!, the request\'s token',
  },
  getPersonalAccessToken: {
    target: 'none',
    special: 'caller-owned',
    source:
      'lib/api/personal_access_tokens.rb `get ":id"`: read_user_personal_access_tokens, else 404 for admins, ' +
      '401 for others',
  },
  revokePersonalAccessToken: {
    target: 'none',
    special: 'caller-owned',
    source: 'lib/api/personal_access_tokens.rb `delete ":id"`: RevokeService (the token\'s user or an admin)',
  },
  revokeCurrentPersonalAccessToken: {
    target: 'none',
    special: 'caller-owned',
    source: 'lib/api/personal_access_tokens.rb `delete "self"`: revokes the request\'s own token',
  },
  listDescendantGroups: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/groups.rb `get ":id/descendant_groups"`: find_group! → 404; GroupsFinder for the rest',
  },
  transferGroup: {
    target: 'group',
    see: VISIBLE,
    role: 'owner',
    // Without group_id a root group answers 400 "already a root group": allowed, and nothing moves.
    body: () => ({}),
    source: 'lib/api/groups.rb `post ":id/transfer"`: find_group!, authorize! :admin_group (Owner)',
  },
  listNamespaces: {
    target: 'none',
    see: 'signed-in',
    source: "lib/api/namespaces.rb `get`: authenticate!; the caller's namespaces",
  },
  getNamespace: {
    target: 'group',
    anonymous: 401,
    see: 'guest',
    params: (c) => ({ id: c.target.group.id }),
    source:
      'lib/api/namespaces.rb `get ":id"`: authenticate!, then read_namespace_via_membership (members of the ' +
      'group or above it, admins), else not_found!("Namespace")',
  },
  listProjectGroups: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/projects.rb `get ":id/groups"`: user_project → 404; Projects::GroupsFinder',
  },
  transferProject: {
    target: 'project',
    see: VISIBLE,
    role: 'owner',
    // Into the namespace it is already in: 400 for whoever may transfer, and nothing moves.
    body: (c) => ({ namespace: String(c.target.group.id) }),
    source:
      'lib/api/projects.rb `put ":id/transfer"`: authorize! :change_namespace (ProjectPolicy owner_access) ' +
      'before find_namespace!',
  },
  // Boards' deprecated label update, next to the identity rules for the calls a new client tries first.
  updateGroupLabelByName: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: (c) => ({ label_id: c.r.labelId, description: `matrix ${unique('d')}` }),
    source: 'lib/api/group_labels.rb deprecated `put` (update_label): authorize! :admin_label, user_group',
  },
};
