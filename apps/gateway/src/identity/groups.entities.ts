import type { NamespaceDoc } from './identity.models';
import { groupWebUrl } from './urls';

/**
 * Entities::Group and Entities::GroupDetail (lib/api/entities/group*.rb). Settings this catalogue does
 * not model are rendered with GitLab's defaults for a new group.
 */
export function groupEntity(externalUrl: string, group: NamespaceDoc) {
  return {
    id: group._id,
    web_url: groupWebUrl(externalUrl, group),
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'maintainer',
    emails_disabled: false,
    emails_enabled: true,
    mentions_disabled: null,
    lfs_enabled: true,
    archived: false,
    default_branch: null,
    default_branch_protection: 2,
    avatar_url: null,
    request_access_enabled: true,
    full_name: group.fullName,
    full_path: group.fullPath,
    created_at: group.createdAt.toISOString(),
    parent_id: group.parentId,
    organization_id: 1,
    shared_runners_setting: 'enabled',
    marked_for_deletion_on: null,
  };
}

export function groupDetailEntity(externalUrl: string, group: NamespaceDoc, projects: unknown[]) {
  return Object.assign(groupEntity(externalUrl, group), {
    projects,
    shared_projects: [],
    shared_with_groups: [],
    prevent_sharing_groups_outside_hierarchy: false,
  });
}
