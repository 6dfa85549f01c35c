import type { NamespaceDoc, ProjectDoc, UserDoc } from './identity.models';
import { userBasic } from './users.entities';
import { featureFields, featureLevels } from './project-features';
import { avatarUrl, groupWebUrl, projectWebUrl, userWebUrl } from './urls';

/**
 * Entities::BasicProjectDetails → Entities::Project → Entities::ProjectWithAccess
 * (lib/api/entities/*project*.rb). Repository features are rendered as GitLab shows a new, empty project.
 */
export interface ProjectView {
  project: ProjectDoc;
  namespace: NamespaceDoc;
  /** The namespace's user, for projects in a personal namespace. */
  owner: UserDoc | null;
}

export interface ProjectAccess {
  projectAccess: number;
  groupAccess: number;
}

/** NotificationSetting level `global`, what GitLab reports before a user changes anything. */
const GLOBAL_NOTIFICATION_LEVEL = 3;

export function namespaceBasic(externalUrl: string, namespace: NamespaceDoc, owner: UserDoc | null) {
  const isUser = namespace.kind === 'user';
  return {
    id: namespace._id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.fullPath,
    parent_id: namespace.parentId,
    avatar_url: isUser && owner ? avatarUrl(owner) : null,
    web_url: isUser
      ? userWebUrl(externalUrl, { username: namespace.path })
      : groupWebUrl(externalUrl, namespace),
  };
}

function host(externalUrl: string): string {
  return new URL(externalUrl).host;
}

export function basicProjectEntity(externalUrl: string, view: ProjectView) {
  const { project, namespace, owner } = view;
  const webUrl = projectWebUrl(externalUrl, project);
  return {
    id: project._id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${namespace.fullName} / ${project.name}`,
    path: project.path,
    path_with_namespace: project.fullPath,
    created_at: project.createdAt.toISOString(),
    default_branch: project.defaultBranch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${new URL(externalUrl).hostname}:${project.fullPath}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: null,
    forks_count: 0,
    avatar_url: null,
    star_count: project.starCount,
    last_activity_at: project.lastActivityAt.toISOString(),
    namespace: namespaceBasic(externalUrl, namespace, owner),
  };
}

function accessEntry(level: number) {
  return level > 0 ? { access_level: level, notification_level: GLOBAL_NOTIFICATION_LEVEL } : null;
}

export function projectEntity(externalUrl: string, view: ProjectView, access?: ProjectAccess) {
  const { project, owner } = view;
  const api = `${externalUrl}/api/v4/projects/${project._id}`;
  const features = featureLevels(project);
  return Object.assign(basicProjectEntity(externalUrl, view), {
    container_registry_image_prefix: `${host(externalUrl)}/${project.fullPath.toLowerCase()}`,
    _links: {
      self: api,
      // Entities::Project exposes these links, and open_issues_count, only while the feature is on.
      ...(features.issues !== 'disabled' ? { issues: `${api}/issues` } : {}),
      ...(features.merge_requests !== 'disabled' ? { merge_requests: `${api}/merge_requests` } : {}),
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    },
    packages_enabled: true,
    empty_repo: true,
    archived: false,
    visibility: project.visibility,
    ...(project.namespaceKind === 'user' && owner ? { owner: userBasic(externalUrl, owner) } : {}),
    resolve_outdated_diff_discussions: false,
    ...featureFields(project),
    service_desk_enabled: false,
    can_create_merge_request_in: true,
    emails_disabled: false,
    emails_enabled: true,
    shared_runners_enabled: true,
    lfs_enabled: true,
    creator_id: project.creatorId,
    import_status: 'none',
    ...(features.issues !== 'disabled' ? { open_issues_count: 0 } : {}),
    description_html: project.description,
    updated_at: project.updatedAt.toISOString(),
    ci_config_path: null,
    public_jobs: true,
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: false,
    request_access_enabled: true,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    merge_method: 'merge',
    squash_option: 'default_off',
    ...(access
      ? {
          permissions: {
            project_access: accessEntry(access.projectAccess),
            group_access: accessEntry(access.groupAccess),
          },
        }
      : {}),
  });
}
